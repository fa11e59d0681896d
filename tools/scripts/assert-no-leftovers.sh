#!/usr/bin/env bash
# Fails when a test run left a control-plane process behind (the harness must stop everything it starts).
# Only processes running this checkout's binaries (or KUBEBUILDER_ASSETS') count; a plane started on purpose
# with `make local-up` is not a leftover.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin_dir="${KUBEBUILDER_ASSETS:-$(pwd)/.cache/control-plane/}"
leftovers="$(pgrep -af -- "$bin_dir" | grep -v -- "$(pwd)/.cache/local-system" | grep -v pgrep || true)"
if [ -n "$leftovers" ]; then
  echo "control-plane processes left running after the tests:" >&2
  echo "$leftovers" >&2
  exit 1
fi
echo "no control-plane process left running"
