import { FLEET_NETWORKING_GROUP, GATEWAY_GROUP } from '@fleet-gateway/api-types';

/** The controllerName a GatewayClass must carry for this implementation to act on its Gateways. */
export const CONTROLLER_NAME = 'networking.fleet.azure.com/afd';

export { FLEET_NETWORKING_GROUP, GATEWAY_GROUP };

/** Fleet keeps each member's InternalServiceExports in this hub namespace. */
export function memberNamespace(cluster: string): string {
  return `fleet-member-${cluster}`;
}

export function namespacedName(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

/** The key of one ServiceImport port: `namespace/name:port`. */
export function backendKey(namespace: string, name: string, port: number): string {
  return `${namespacedName(namespace, name)}:${port}`;
}
