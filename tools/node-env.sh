# Puts the project's pinned Node (when bootstrap installed one) and pnpm first on PATH. For a shell:
#   source tools/node-env.sh      (after make bootstrap; then `pnpm nx test <project>` runs on that Node)
# Sourced by tools/bootstrap.sh; the Makefile does the same from tools/toolchain.env.
_fleet_gateway_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# shellcheck source=toolchain.env
source "$_fleet_gateway_root/tools/toolchain.env"
case ":$PATH:" in
  *":$_fleet_gateway_root/.cache/node/$NODE_VERSION/bin:"*) ;;
  *) PATH="$_fleet_gateway_root/.cache/node/$NODE_VERSION/bin:$_fleet_gateway_root/.cache/pnpm/$PNPM_VERSION:$PATH" ;;
esac
export PATH
unset _fleet_gateway_root
