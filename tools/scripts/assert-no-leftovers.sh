#!/usr/bin/env bash
# Fails when a test run left behind a process or a folder the project starts (the harnesses must stop everything
# they start). Only this checkout's count (other checkouts on the machine run their own tests):
#   - control-plane binaries (.cache/control-plane/, or KUBEBUILDER_ASSETS'),
#   - the Azure side and the emulator (tools/local-system/src/azure-side.ts, tools/azure-emulator/src/*),
#   - agents: bundles dist/apps/*/main.mjs, or their sources apps/*/src/main.ts (through tsx),
#   - tsx itself: a wrapper (node_modules/.../tsx/dist/cli.mjs) or anything run with tsx's loader,
#   - folders: control-plane and local-system test folders in $TMPDIR whose owner (the pid in the name,
#     fleet-gateway-cp-<pid>-*, fleet-gateway-local-<pid>-*) is gone, and a local-system folder
#     (${LOCAL_DIR:-.cache/local-system}, .cache/e2e/local-system) that does not hold a running system.
# A local system started on purpose (`make local-up`, `make e2e-setup`) is not a leftover: the processes its
# state.json records (and their process groups) are left out, and so is its folder, while the record says "running".
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
tmp="${TMPDIR:-/tmp}"
tmp="${tmp%/}"
bin_dir="${KUBEBUILDER_ASSETS:-$root/.cache/control-plane/}"
local_dirs=("${LOCAL_DIR:-$root/.cache/local-system}" "$root/.cache/e2e/local-system")
failed=0

# The pids and process groups each running local system records, one number a line.
exempt=""
running_dirs=" "
for local_dir in "${local_dirs[@]}"; do
  [ -f "$local_dir/state.json" ] || continue
  recorded="$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    if (r.status !== "running") process.exit(0);
    const plane = r.plane ? [r.plane.etcd.pid, ...r.plane.clusters.flatMap((c) => c.pids)] : [];
    console.log([...plane, ...(r.processes ?? []).flatMap((p) => [p.pid, p.pgid])].join("\n"));
  ' "$local_dir/state.json" 2>/dev/null || true)"
  if [ -n "$recorded" ]; then
    exempt+="$recorded"$'\n'
    running_dirs+="$local_dir "
  fi
done
is_exempt() { [ -n "$exempt" ] && grep -qx -- "$1" <<<"$exempt"; }

# This script and the shells and tools that run it are never leftovers.
ancestors=" "
pid=$$
while [ "$pid" -gt 1 ] 2>/dev/null; do
  ancestors+="$pid "
  pid="$(awk '{ sub(/^.*\) /, ""); print $2 }' "/proc/$pid/stat" 2>/dev/null || echo 0)"
done

# What kind of leftover a command line is (relative arguments taken from the process's working directory), if any.
kind_of() {
  local line="$1" cwd="$2"
  case "$line" in
    *"$bin_dir"*) echo "control-plane binary"; return ;;
    *"$root/tools/local-system/src/azure-side.ts"* | *"$root/tools/azure-emulator/src/"*) echo "Azure side / emulator"; return ;;
  esac
  if [[ "$line" =~ $root/dist/apps/[^/\ ]+/main\.mjs || "$line" =~ $root/apps/[^/\ ]+/src/main\.ts ]]; then echo "agent"; return; fi
  if [[ "$line" == *"$root/node_modules/"*tsx/dist/* ]]; then echo "tsx"; return; fi
  if [[ "$cwd" == "$root" || "$cwd" == "$root/"* ]] && [[ " $line " =~ \ --(import|require|loader)[=\ ]tsx\  ]]; then echo "tsx"; return; fi
}

for proc in /proc/[0-9]*; do
  pid="${proc#/proc/}"
  [[ "$ancestors" == *" $pid "* ]] && continue
  cwd="$(readlink "$proc/cwd" 2>/dev/null || true)"
  args=()
  mapfile -d '' args <"$proc/cmdline" 2>/dev/null || continue
  [ "${#args[@]}" -gt 0 ] || continue
  line=""
  for arg in "${args[@]}"; do
    line+="$arg "
    if [ -n "$cwd" ] && [[ "$arg" != /* && "$arg" != -* && "$arg" == */* ]]; then line+="$cwd/$arg "; fi
  done
  kind="$(kind_of "$line" "$cwd")"
  [ -n "$kind" ] || continue
  pgid="$(awk '{ sub(/^.*\) /, ""); print $3 }' "$proc/stat" 2>/dev/null || echo "")"
  if is_exempt "$pid" || { [ -n "$pgid" ] && is_exempt "$pgid"; }; then continue; fi
  echo "left running after the tests ($kind): $pid ${line:0:300}" >&2
  failed=1
done

for dir in "$tmp"/fleet-gateway-cp-* "$tmp"/fleet-gateway-local-*; do
  [ -d "$dir" ] || continue
  owner="$(basename "$dir" | sed -n 's/^fleet-gateway-\(cp\|local\)-\([0-9]\+\)-.*/\2/p')"
  if [ -n "$owner" ] && ! kill -0 "$owner" 2>/dev/null; then
    echo "folder left behind by process $owner: $dir" >&2
    failed=1
  fi
done
for local_dir in "${local_dirs[@]}"; do
  if [ -e "$local_dir" ] && [[ "$running_dirs" != *" $local_dir "* ]]; then
    echo "local-system folder left behind without a running system: $local_dir (make local-down or make e2e-cleanup removes it)" >&2
    failed=1
  fi
done

[ "$failed" = 0 ] && echo "no process or folder left behind (control planes, Azure side, emulator, agents, tsx, local-system folders)"
exit "$failed"
