import type { FrontDoorScope } from '@fleet-gateway/azure-frontdoor';
import type { ArmFailure } from '@fleet-gateway/arm-runtime';

/** Who the hub is in Azure, for messages that tell an operator which identity needs which role. */
export interface AzureIdentityDescription {
  /** e.g. `the workload identity with client id 1234… (tenant …)` (agent-flags' describeAzureCredential). */
  readonly identity: string;
}

/** The Names of the hub's custom roles in deploy/azure-roles (a test keeps them equal to the files). */
export const HUB_ROLE_NAMES = { frontDoor: 'Fleet Gateway hub: Front Door', wafReader: 'Fleet Gateway hub: WAF policy reader' } as const;

/**
 * What an operator must do about a terminal ARM failure that is about the hub's access rather than the Gateway:
 * a missing resource group or a missing role assignment. Undefined for every other failure.
 */
export function accessHint(failure: ArmFailure, scope: FrontDoorScope, who: AzureIdentityDescription): string | undefined {
  const rgScope = `/subscriptions/${scope.subscriptionId}/resourceGroups/${scope.resourceGroup}`;
  if (failure.code === 'ResourceGroupNotFound') {
    return `resource group ${scope.resourceGroup} does not exist in subscription ${scope.subscriptionId}: create it, or point --afd-resource-group at an existing one`;
  }
  if (failure.category === 'authorization') {
    return `${who.identity} lacks access to scope ${rgScope}: assign it the role "${HUB_ROLE_NAMES.frontDoor}" there (deploy/azure-roles; and "${HUB_ROLE_NAMES.wafReader}" on any WAF policy the Gateways attach)`;
  }
  return undefined;
}
