#!/usr/bin/env bash
# E2E_MODE=azure: creates the e2e system in a real subscription — run by `make e2e-setup` (e2e/src/e2e-commands.ts),
# which checks az and its login first and sets every variable below. Creates (or reuses) the resource group; creates,
# tagged fleet-gateway-e2e=<run id> and recorded in $E2E_AZURE_DIR/created.tsv for cleanup.sh: the shared virtual
# network, a container registry with both agent images and the echo backend's built in it (az acr build: no local Docker), a WAF policy, the
# user-assigned identities (federated with the agents' ServiceAccounts) and three AKS clusters (a hub, member-1 with
# auto-approval, member-2 without); creates the agents' custom roles (deploy/azure-roles) and grants every Azure role
# they need, here and never per Private Link Service later (deploy/azure-roles/assignments.json, rendered in the
# README; e2e/src/azure-scripts.test.ts checks the two agree); installs the Gateway API
# CRDs and the charts. DRY_RUN=1 prints every az, kubectl and helm command instead of running it.
set -euo pipefail

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=e2e/azure/lib.sh
source "$SCRIPT_DIR/lib.sh"

require_variables AZURE_SUBSCRIPTION_ID AZURE_RESOURCE_GROUP AZURE_NETWORK_SETTING LOCATION E2E_AZURE_DIR E2E_RUN_ID REPO_ROOT HELM
# Upstream fleet-networking's shapes: only shared-vnet (every cluster in one virtual network, a subnet each) is built.
if [[ "$AZURE_NETWORK_SETTING" != shared-vnet ]]; then
  die "AZURE_NETWORK_SETTING=$AZURE_NETWORK_SETTING is not built by e2e/azure (only shared-vnet is); nothing was created"
fi
[[ "$E2E_RUN_ID" =~ ^[a-z0-9]{6}$ ]] || die "E2E_RUN_ID has invalid value \"$E2E_RUN_ID\"; expected 6 lower-case letters or digits"

# The image builds upload the repository (minus .dockerignore) and member-hub-access-cli.ts resolves the workspace from here.
cd "$REPO_ROOT"
readonly SUB=$AZURE_SUBSCRIPTION_ID RG=$AZURE_RESOURCE_GROUP RUN=$E2E_RUN_ID
readonly TAGS=("$OWNER_TAG=$RUN")
readonly RG_ID="/subscriptions/$SUB/resourceGroups/$RG"
readonly PREFIX="fgw-e2e-$RUN"
readonly ACR="fgwe2e$RUN"
readonly WAF_POLICY="fgwe2ewaf$RUN"
readonly WAF_POLICY_ID="$RG_ID/providers/Microsoft.Network/frontDoorWebApplicationFirewallPolicies/$WAF_POLICY"
readonly VNET="$PREFIX-vnet"
readonly CLUSTERS=(hub member-1 member-2)
# member-1's agent approves the hub's Private Link connections itself; member-2's leaves them to an operator.
readonly AUTO_APPROVAL_MEMBER=member-1
# shellcheck source=tools/toolchain.env
source "$REPO_ROOT/tools/toolchain.env"
readonly NODE_BASE_IMAGE="node:$NODE_VERSION-bookworm-slim"
readonly GATEWAY_API_CRDS=https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.2.1/standard-install.yaml
readonly IMAGE_TAG="e2e-$RUN"
readonly ROLES_DIR="$REPO_ROOT/deploy/azure-roles"

cluster_name() { printf '%s-%s' "$PREFIX" "$1"; }
node_resource_group() { printf 'MC_%s' "$(cluster_name "$1")"; }
node_resource_group_id() { printf '/subscriptions/%s/resourceGroups/%s' "$SUB" "$(node_resource_group "$1")"; }
kubeconfig() { printf '%s/%s.kubeconfig' "$E2E_AZURE_DIR" "$1"; }

# Every id is recorded before its create command runs, so that an interrupted set-up leaves nothing cleanup.sh does
# not know of (what was never created is "already gone" to it).

# grant WHO PRINCIPAL_ID ROLE SCOPE: one role assignment, named by a fresh GUID so that its id is known beforehand.
grant() {
  local who=$1 principal=$2 role=$3 scope=$4 name
  name=$(uuidgen 2>/dev/null || cat /proc/sys/kernel/random/uuid)
  name=${name,,}
  log "granting $who \"$role\" on $scope"
  record roleAssignment "$scope/providers/Microsoft.Authorization/roleAssignments/$name"
  run az role assignment create --subscription "$SUB" --name "$name" \
    --assignee-object-id "$principal" --assignee-principal-type ServicePrincipal --role "$role" --scope "$scope" --output none
}

# role_name KEY: the Name of deploy/azure-roles/KEY.json (what a role assignment names).
role_name() { sed -n 's/^ *"Name": "\(.*\)",$/\1/p' "$ROLES_DIR/$1.json"; }

# define_role FILE: the custom role of FILE with its AssignableScopes set to this subscription, created or updated. Role
# definitions are the subscription's, not this run's: cleanup.sh leaves them for the next run to update.
define_role() {
  local file=$1 name definition
  name=$(role_name "$(basename "$file" .json)")
  definition="$E2E_AZURE_DIR/role-$(basename "$file")"
  sed "s#/subscriptions/{subscriptionId}#/subscriptions/$SUB#g" "$file" >"$definition"
  if [[ -n "$(query "" az role definition list --subscription "$SUB" --custom-role-only true --name "$name" --query "[].roleName" -o tsv)" ]]; then
    run az role definition update --subscription "$SUB" --role-definition "@$definition" --output none
  else
    run az role definition create --subscription "$SUB" --role-definition "@$definition" --output none
  fi
}

mkdir -p "$E2E_AZURE_DIR"
: >"$E2E_AZURE_DIR/outputs.env"

log "resource group $RG ($LOCATION), subscription $SUB, run $RUN, network $AZURE_NETWORK_SETTING"
if [[ $(query false az group exists --subscription "$SUB" --name "$RG") == true ]]; then
  log "reusing resource group $RG (it is not this run's: cleanup leaves it)"
else
  record resourceGroup "$RG_ID"
  run az group create --subscription "$SUB" --name "$RG" --location "$LOCATION" --tags "${TAGS[@]}" --output none
fi

log "shared virtual network $VNET: one subnet per cluster"
readonly vnet_id="$RG_ID/providers/Microsoft.Network/virtualNetworks/$VNET"
record vnet "$vnet_id"
run az network vnet create --subscription "$SUB" --resource-group "$RG" --name "$VNET" --location "$LOCATION" \
  --address-prefixes 10.0.0.0/8 --tags "${TAGS[@]}" --output none
declare -A SUBNET_IDS
index=1
for cluster in "${CLUSTERS[@]}"; do
  SUBNET_IDS[$cluster]="$vnet_id/subnets/$cluster"
  run az network vnet subnet create --subscription "$SUB" --resource-group "$RG" --vnet-name "$VNET" --name "$cluster" \
    --address-prefixes "10.$index.0.0/16" --output none
  index=$((index + 1))
done

log "container registry $ACR; the Node base image's digest; both agent images (az acr build)"
readonly acr_id="$RG_ID/providers/Microsoft.ContainerRegistry/registries/$ACR"
record acr "$acr_id"
run az acr create --subscription "$SUB" --resource-group "$RG" --name "$ACR" --location "$LOCATION" --sku Basic \
  --tags "${TAGS[@]}" --output none
# The Dockerfiles name the base by tag: its digest, as Docker Hub serves it now, is resolved here (import keeps the
# manifest, so the registry's digest is Docker Hub's) and recorded for the README and the Dockerfiles' pin.
run az acr import --subscription "$SUB" --name "$ACR" --source "docker.io/library/$NODE_BASE_IMAGE" --image "$NODE_BASE_IMAGE" --force
node_digest=$(query sha256:dry-run az acr repository show --subscription "$SUB" --name "$ACR" --image "$NODE_BASE_IMAGE" --query digest -o tsv)
output nodeBaseImage "docker.io/library/$NODE_BASE_IMAGE@$node_digest"
for app in hub-gateway member-discovery; do
  run az acr build --subscription "$SUB" --registry "$ACR" --image "$app:$IMAGE_TAG" --file "$REPO_ROOT/apps/$app/Dockerfile" \
    --build-arg "NODE_VERSION=$NODE_VERSION" "$REPO_ROOT"
done
# The scenarios' echo backend (the local stand-in's echo server): e2e deploys it behind each Service it applies.
run az acr build --subscription "$SUB" --registry "$ACR" --image "echo-backend:$IMAGE_TAG" --file "$REPO_ROOT/e2e/azure/echo/Dockerfile" \
  --build-arg "NODE_VERSION=$NODE_VERSION" "$REPO_ROOT"
output echoImage "$ACR.azurecr.io/echo-backend:$IMAGE_TAG"

log "WAF policy $WAF_POLICY (Premium, for the WAF scenarios; the hub reads it)"
record wafPolicy "$WAF_POLICY_ID"
run az rest --method put --url "https://management.azure.com$WAF_POLICY_ID?api-version=2025-11-01" \
  --body "{\"location\":\"Global\",\"sku\":{\"name\":\"Premium_AzureFrontDoor\"},\"tags\":{\"$OWNER_TAG\":\"$RUN\"},\"properties\":{\"policySettings\":{\"enabledState\":\"Enabled\",\"mode\":\"Prevention\"}}}" \
  --output none

log "identities: the agents' (workload identity) and the clusters' control plane"
declare -A PRINCIPALS CLIENT_IDS
for who in aks hub member-1 member-2; do
  name="$PREFIX-$who"
  identity_id="$RG_ID/providers/Microsoft.ManagedIdentity/userAssignedIdentities/$name"
  record identity "$identity_id"
  run az identity create --subscription "$SUB" --resource-group "$RG" --name "$name" --location "$LOCATION" \
    --tags "${TAGS[@]}" --output none
  PRINCIPALS[$who]=$(query "dry-run-principal-of-$who" az identity show --ids "$identity_id" --query principalId -o tsv)
  CLIENT_IDS[$who]=$(query "dry-run-client-id-of-$who" az identity show --ids "$identity_id" --query clientId -o tsv)
done
# AKS needs its control-plane identity to manage the shared network before the clusters are created (a fresh
# assignment can take minutes to apply; az aks create retries the network's checks meanwhile).
grant aks "${PRINCIPALS[aks]}" "Network Contributor" "$vnet_id"

for cluster in "${CLUSTERS[@]}"; do
  name=$(cluster_name "$cluster")
  log "AKS cluster $name (OIDC issuer and workload identity on; its node resource group $(node_resource_group "$cluster"))"
  aks_id="$RG_ID/providers/Microsoft.ContainerService/managedClusters/$name"
  record aks "$aks_id"
  run az aks create --subscription "$SUB" \
    --resource-group "$RG" --name "$name" --location "$LOCATION" --node-count 1 --node-vm-size Standard_D2s_v5 \
    --network-plugin azure --vnet-subnet-id "${SUBNET_IDS[$cluster]}" --assign-identity "$RG_ID/providers/Microsoft.ManagedIdentity/userAssignedIdentities/$PREFIX-aks" \
    --node-resource-group "$(node_resource_group "$cluster")" --enable-oidc-issuer --enable-workload-identity \
    --no-ssh-key --tags "${TAGS[@]}" --output none
  kubelet=$(query "dry-run-principal-of-kubelet-$cluster" az aks show --ids "$aks_id" --query identityProfile.kubeletidentity.objectId -o tsv)
  grant "kubelet-$cluster" "$kubelet" AcrPull "$acr_id"
  run az aks get-credentials --subscription "$SUB" --resource-group "$RG" --name "$name" --file "$(kubeconfig "$cluster")" --overwrite-existing
  output "kubeconfig.$cluster" "$(kubeconfig "$cluster")"
  output "nodeResourceGroup.$cluster" "$(node_resource_group "$cluster")"
done

log "the agents' custom roles (deploy/azure-roles), created in the subscription or updated where they exist"
for file in "$ROLES_DIR"/*.json; do
  [[ "$(basename "$file")" == assignments.json ]] || define_role "$file"
done
log "Azure roles, granted once for the whole run (never per Private Link Service; deploy/azure-roles/assignments.json)"
grant hub "${PRINCIPALS[hub]}" "$(role_name hub-gateway-front-door)" "$RG_ID"
grant hub "${PRINCIPALS[hub]}" "$(role_name hub-gateway-waf-reader)" "$WAF_POLICY_ID"
for member in member-1 member-2; do
  # The members' Services keep their Private Link Services in the node resource group (no azure-pls-resource-group).
  grant hub "${PRINCIPALS[hub]}" "$(role_name hub-gateway-private-link-reader)" "$(node_resource_group_id "$member")"
  grant "$member" "${PRINCIPALS[$member]}" "$(role_name member-discovery-reader)" "$(node_resource_group_id "$member")"
done
grant "$AUTO_APPROVAL_MEMBER" "${PRINCIPALS[$AUTO_APPROVAL_MEMBER]}" "$(role_name member-discovery-approver)" "$(node_resource_group_id "$AUTO_APPROVAL_MEMBER")"

# federate WHO CLUSTER SERVICE_ACCOUNT: the agent's ServiceAccount may take the identity's tokens (deleted with it).
federate() {
  local who=$1 cluster=$2 service_account=$3 issuer
  issuer=$(query "https://dry-run.oidc/$cluster/" az aks show --subscription "$SUB" --resource-group "$RG" --name "$(cluster_name "$cluster")" --query oidcIssuerProfile.issuerUrl -o tsv)
  run az identity federated-credential create --subscription "$SUB" --resource-group "$RG" --identity-name "$PREFIX-$who" \
    --name "$service_account" --issuer "$issuer" --subject "system:serviceaccount:fleet-system:$service_account" \
    --audiences api://AzureADTokenExchange --output none
}

tenant=$(query dry-run-tenant az account show --subscription "$SUB" --query tenantId -o tsv)
log "hub: Gateway API v1.2.1 CRDs (standard channel, a prerequisite), then the hub-gateway chart"
federate hub hub hub-gateway
run kubectl --kubeconfig "$(kubeconfig hub)" apply --server-side -f "$GATEWAY_API_CRDS"
run kubectl --kubeconfig "$(kubeconfig hub)" create namespace fleet-system
run "$HELM" dependency build "$REPO_ROOT/charts/hub-gateway"
# --take-ownership --force-conflicts: the README's way over CRDs another installer (upstream's) put there.
run "$HELM" upgrade --install hub-gateway "$REPO_ROOT/charts/hub-gateway" --kubeconfig "$(kubeconfig hub)" --namespace fleet-system \
  --take-ownership --force-conflicts --wait --timeout 10m \
  --set "image.repository=$ACR.azurecr.io/hub-gateway" --set "image.tag=$IMAGE_TAG" \
  --set enableAfd=true --set "afd.resourceGroup=$RG" --set "hubName=$(cluster_name hub)" \
  --set "azure.subscriptionId=$SUB" --set "azure.tenantId=$tenant" \
  --set serviceAccount.name=hub-gateway --set workloadIdentity.enabled=true --set "workloadIdentity.clientId=${CLIENT_IDS[hub]}"
output afdResourceGroup "$RG"
output wafPolicyId "$WAF_POLICY_ID"
output tenantId "$tenant"

run "$HELM" dependency build "$REPO_ROOT/charts/member-discovery"
for member in member-1 member-2; do
  log "$member: its hub access (fleet-member-$member only), then the member-discovery chart"
  federate "$member" "$member" member-discovery
  # The hub's Role for the member agent is tools/control-plane's MEMBER_AGENT_HUB_RULES, created by the same code as
  # in the local system; it writes the member's hub kubeconfig.
  run "$REPO_ROOT/node_modules/.bin/tsx" "$REPO_ROOT/e2e/src/member-hub-access-cli.ts" "$(kubeconfig hub)" "$member" "$E2E_AZURE_DIR/$member-hub.kubeconfig"
  run kubectl --kubeconfig "$(kubeconfig "$member")" create namespace fleet-system
  run kubectl --kubeconfig "$(kubeconfig "$member")" --namespace fleet-system create secret generic hub-kubeconfig \
    --from-file "kubeconfig=$E2E_AZURE_DIR/$member-hub.kubeconfig"
  approve=false
  if [[ "$member" == "$AUTO_APPROVAL_MEMBER" ]]; then approve=true; fi
  run "$HELM" upgrade --install member-discovery "$REPO_ROOT/charts/member-discovery" --kubeconfig "$(kubeconfig "$member")" \
    --namespace fleet-system --take-ownership --force-conflicts --wait --timeout 10m \
    --set "image.repository=$ACR.azurecr.io/member-discovery" --set "image.tag=$IMAGE_TAG" \
    --set "memberClusterName=$member" --set hub.kubeconfigSecret.name=hub-kubeconfig \
    --set enablePrivateLinkOriginDiscovery=true --set "approvePrivateLinkConnections=$approve" \
    --set "azure.subscriptionId=$SUB" --set "azure.tenantId=$tenant" --set "azure.nodeResourceGroup=$(node_resource_group "$member")" \
    --set "azure.region=$LOCATION" \
    --set serviceAccount.name=member-discovery --set workloadIdentity.enabled=true --set "workloadIdentity.clientId=${CLIENT_IDS[$member]}"
done
log "the Azure e2e system is up (created: $E2E_AZURE_DIR/created.tsv)"
