#!/usr/bin/env bash
# Fails when a test run left a control-plane process behind (the harness must stop everything it starts).
set -euo pipefail
cd "$(dirname "$0")/../.."
leftovers="$(pgrep -af -- "--etcd-prefix=/registry-|--unsafe-no-fsync=true|kube-controller-manager --kubeconfig=/tmp/fleet-gateway-cp-" || true)"
# A plane started on purpose with `make local-up` is not a leftover.
leftovers="$(grep -v -- "$(pwd)/.cache/local-plane" <<<"$leftovers" || true)"
if [ -n "$leftovers" ]; then
  echo "control-plane processes left running after the tests:" >&2
  echo "$leftovers" >&2
  exit 1
fi
echo "no control-plane process left running"
