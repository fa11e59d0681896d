# shellcheck shell=bash
# Shared by setup.sh and cleanup.sh (sourced). Every Azure or cluster command goes through `run` (its output is
# not needed) or `query` (it prints a value), so that DRY_RUN=1 prints each command as `+ <command>` on stderr
# instead of running it — deploy/azure-roles is checked against that output (e2e/src/azure-scripts.test.ts).

# The tag that marks what this run created: cleanup deletes only resources carrying it with this run's id.
# shellcheck disable=SC2034 # used by setup.sh and cleanup.sh, which source this file
readonly OWNER_TAG=fleet-gateway-e2e

log() { printf '[e2e azure] %s\n' "$*" >&2; }

die() {
  log "$*"
  exit 2
}

dry_run() { [[ "${DRY_RUN:-0}" == 1 ]]; }

print_command() {
  local line='+'
  local word
  for word in "$@"; do line+=" $(printf '%q' "$word")"; done
  printf '%s\n' "$line" >&2
}

run() {
  if dry_run; then
    print_command "$@"
    return 0
  fi
  "$@"
}

# query PLACEHOLDER COMMAND...: the command's output; in a dry run, PLACEHOLDER (what the value would be).
query() {
  local placeholder=$1
  shift
  if dry_run; then
    print_command "$@"
    printf '%s\n' "$placeholder"
    return 0
  fi
  "$@"
}

require_variables() {
  local name
  for name in "$@"; do
    [[ -n "${!name:-}" ]] || die "$name is not set; e2e/src/e2e-commands.ts sets it (run make e2e-setup with E2E_MODE=azure)"
  done
}

# record KIND ID: what this run created, one line each, in creation order; cleanup.sh removes them in reverse.
record() {
  printf '%s\t%s\n' "$1" "$2" >>"$E2E_AZURE_DIR/created.tsv"
}

# output KEY VALUE: what e2e-tests needs of the system (kubeconfigs, names, the Node base image digest).
output() {
  printf '%s=%s\n' "$1" "$2" >>"$E2E_AZURE_DIR/outputs.env"
}
