import { parseArmId } from '@fleet-gateway/arm-runtime';

/**
 * Whether a private endpoint is one Azure Front Door made for a Private Link origin. AFD creates these "from an Azure
 * Front Door managed regional private network", in a Microsoft-owned subscription (Azure docs: Front Door Private
 * Link; the Front Door Premium + App Service template), in a resource group `eafd-Prod-<region>` (the Container Apps
 * + Front Door guide shows `/subscriptions/<id>/resourceGroups/eafd-Prod-centralus/providers/Microsoft.Network/
 * privateEndpoints/<id>`). Microsoft does not publish AFD's subscription ids, so the check is the shape: that
 * resource group, the private endpoint type, and a subscription other than the service's own (where the customer,
 * not Front Door, creates endpoints). It narrows who can use a leaked request message; it is no proof on its own.
 */
export type FrontDoorEndpointCheck = { readonly frontDoor: true } | { readonly frontDoor: false; readonly why: string };

const FRONT_DOOR_RESOURCE_GROUP = /^eafd-prod-[a-z0-9]+$/i;

export function checkFrontDoorEndpoint(privateEndpointId: string, privateLinkServiceSubscriptionId: string): FrontDoorEndpointCheck {
  const { subscriptionId: subscription = '', resourceGroup = '', name = '' } = parseArmId(privateEndpointId);
  // The parts must spell the whole id back: a private endpoint itself, not a child of one or a path around one.
  const spelledBack = `/subscriptions/${subscription}/resourceGroups/${resourceGroup}/providers/Microsoft.Network/privateEndpoints/${name}`;
  if (subscription === '' || resourceGroup === '' || spelledBack.toLowerCase() !== privateEndpointId.toLowerCase())
    return { frontDoor: false, why: `private endpoint id ${JSON.stringify(privateEndpointId)} is not a Microsoft.Network/privateEndpoints id` };
  if (!FRONT_DOOR_RESOURCE_GROUP.test(resourceGroup)) {
    return { frontDoor: false, why: `private endpoint is in resource group ${resourceGroup}, not Front Door's eafd-Prod-<region>` };
  }
  if (subscription.toLowerCase() === privateLinkServiceSubscriptionId.toLowerCase()) {
    return { frontDoor: false, why: `private endpoint is in the service's own subscription ${subscription}, not Front Door's managed one` };
  }
  return { frontDoor: true };
}

export function subscriptionOf(id: string): string {
  return parseArmId(id).subscriptionId ?? '';
}

/** The connections of a Private Link Service whose private endpoint is Front Door's (the ones the hub can have made). */
export function frontDoorConnections<C extends { readonly privateEndpointId: string }>(privateLinkServiceId: string, connections: readonly C[]): C[] {
  const subscription = subscriptionOf(privateLinkServiceId);
  return connections.filter((connection) => checkFrontDoorEndpoint(connection.privateEndpointId, subscription).frontDoor);
}
