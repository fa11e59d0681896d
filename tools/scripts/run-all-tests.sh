#!/usr/bin/env bash
# The test command behind `make test` (and so .ci/run): typecheck, lint and tests of every project (never from the
# Nx cache; the hub-side suites that install Gateway API CRDs a second time on the newest release, target
# test-newest-gateway-api, while the first run is on the oldest), then the leftover check, then the per-project counts and the closing "tests: N passed, N failed, ..."
# line. Every step runs even when an earlier one failed, so the closing line is always printed; the exit status is
# 1 when any step failed. PROJECTS=a,b limits the run (and the summary's expectations) to those projects.
set -uo pipefail
cd "$(dirname "$0")/../.."
rm -rf test-results
echo "running on node $(node --version) ($(command -v node)), pnpm $(pnpm --version)"
status=0
selection=()
expected=()
if [ -n "${PROJECTS:-}" ]; then
  selection=(-p "$PROJECTS")
  expected=(--projects "$PROJECTS")
fi
NX_NO_CLOUD=true pnpm exec nx run-many -t typecheck lint test test-newest-gateway-api --output-style=static --skip-nx-cache "${selection[@]}" || status=1
tools/scripts/assert-no-leftovers.sh || status=1
pnpm exec tsx tools/scripts/test-summary.ts test-results "${expected[@]}" || status=1
exit "$status"
