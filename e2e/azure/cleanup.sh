#!/usr/bin/env bash
# E2E_MODE=azure: removes what setup.sh recorded in $E2E_AZURE_DIR/created.tsv, newest first — role assignments by
# id, every other resource only when it still carries this run's tag fleet-gateway-e2e=<run id> (what cannot be
# proved ours is reported and left), the resource group only when this run created it. Run by `make e2e-cleanup`.
# Idempotent: a resource already gone is skipped, and once everything is removed the record goes; a second run finds
# no record and does nothing. DRY_RUN=1 prints every az command instead of running it.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=e2e/azure/lib.sh
source "$SCRIPT_DIR/lib.sh"

require_variables AZURE_SUBSCRIPTION_ID E2E_AZURE_DIR E2E_RUN_ID
readonly SUB=$AZURE_SUBSCRIPTION_ID RUN=$E2E_RUN_ID
readonly CREATED="$E2E_AZURE_DIR/created.tsv"

if [[ ! -f "$CREATED" ]]; then
  log "nothing recorded in $CREATED: nothing to remove"
  exit 0
fi

# owner_tag ID: the resource's fleet-gateway-e2e tag, "<gone>" when it no longer exists. Any other failure stops.
owner_tag() {
  local id=$1 answer errors
  errors=$(mktemp)
  if answer=$(query "$RUN" az resource show --subscription "$SUB" --ids "$id" --query "tags.\"$OWNER_TAG\"" -o tsv 2>"$errors"); then
    rm -f "$errors"
    printf '%s\n' "$answer"
    return 0
  fi
  if grep -qE 'ResourceNotFound|ResourceGroupNotFound|could not be found|was not found' "$errors"; then
    rm -f "$errors"
    printf '<gone>\n'
    return 0
  fi
  cat "$errors" >&2
  rm -f "$errors"
  return 1
}

refused=0
mapfile -t lines < <(tac "$CREATED")
for line in "${lines[@]}"; do
  kind=${line%%$'\t'*}
  id=${line#*$'\t'}
  if [[ "$kind" == roleAssignment ]]; then
    # Not taggable: its id was recorded when this run created it. Deleting a missing one is a no-op for az.
    log "deleting role assignment $id"
    run az role assignment delete --subscription "$SUB" --ids "$id"
    continue
  fi
  tag=$(owner_tag "$id")
  if [[ "$tag" == "<gone>" ]]; then
    log "$kind $id is already gone"
    continue
  fi
  if [[ "$tag" != "$RUN" ]]; then
    log "$kind $id carries $OWNER_TAG=\"$tag\", not this run's \"$RUN\": not ours to delete; left in place"
    refused=1
    continue
  fi
  log "deleting $kind $id"
  case "$kind" in
    resourceGroup) run az group delete --subscription "$SUB" --name "${id##*/}" --yes ;;
    aks) run az aks delete --subscription "$SUB" --ids "$id" --yes ;;
    *) run az resource delete --subscription "$SUB" --ids "$id" ;;
  esac
done

if [[ "$refused" == 1 ]]; then
  die "some recorded resources were not provably this run's and were left; $CREATED is kept"
fi
if dry_run; then
  log "dry run: $CREATED is kept"
  exit 0
fi
rm -f "$CREATED"
log "removed everything this run created"
