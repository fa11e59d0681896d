#!/usr/bin/env bash
# Fails when a test run left a control-plane process or a plane's temporary folder behind (the harness must stop
# everything it starts). Only processes running this checkout's binaries (or KUBEBUILDER_ASSETS') count; a plane
# started on purpose with `make local-up` is not a leftover. A folder counts when the process that owned it (the pid
# in its name, fleet-gateway-cp-<pid>-*) is gone.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin_dir="${KUBEBUILDER_ASSETS:-$(pwd)/.cache/control-plane/}"
failed=0
leftovers="$(pgrep -af -- "$bin_dir" | grep -v -- "$(pwd)/.cache/local-system" || true)"
if [ -n "$leftovers" ]; then
  echo "control-plane processes left running after the tests:" >&2
  echo "$leftovers" >&2
  failed=1
fi
for dir in "${TMPDIR:-/tmp}"/fleet-gateway-cp-*; do
  [ -d "$dir" ] || continue
  owner="$(basename "$dir" | sed -n 's/^fleet-gateway-cp-\([0-9]\+\)-.*/\1/p')"
  if [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; then
    echo "control-plane folder left behind by process $owner: $dir" >&2
    failed=1
  fi
done
[ "$failed" = 0 ] && echo "no control-plane process or folder left behind"
exit "$failed"
