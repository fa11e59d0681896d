#!/usr/bin/env bash
# Installs everything the workspace needs on a fresh machine of this kind (Node 20.19+, Go 1.26, npm registry and Go
# module proxy reachable): pnpm at the pinned version, the locked npm packages, and the control-plane binaries
# (kube-apiserver, etcd, kube-controller-manager built from Go modules into .cache/, reused while unchanged).
set -euo pipefail
cd "$(dirname "$0")/.."

PNPM_VERSION="$(node -p "require('./package.json').packageManager.split('@')[1]")"

node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20 || (a===20 && b<19)) { console.error(`Node ${process.versions.node} is too old: need >=20.19`); process.exit(1); }'
command -v go >/dev/null || { echo "Go is required to build the local control plane (go 1.26+)" >&2; exit 1; }

if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  echo "installing pnpm $PNPM_VERSION"
  npm install --global --no-fund --no-audit "pnpm@$PNPM_VERSION" >/dev/null
fi

pnpm install --frozen-lockfile
pnpm exec tsx tools/control-plane/src/cli.ts build >/dev/null
