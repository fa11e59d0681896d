import { isConflict, isNotFound, objectPath, type KubeClient } from '@fleet-gateway/controller';
import { gateways, type CachedGateway } from './gateway-api-resources.js';

/** Held on a Gateway from just before its first Azure write until its AFD profile is gone (or orphaned). */
export const GATEWAY_FINALIZER = 'networking.fleet.azure.com/afd-profile-cleanup';

export function hasGatewayFinalizer(gateway: CachedGateway): boolean {
  return (gateway.metadata.finalizers ?? []).includes(GATEWAY_FINALIZER);
}

/**
 * Adds or removes our finalizer, keeping everyone else's: the list is replaced under a resourceVersion precondition
 * and re-read on conflict. Undefined when the Gateway is gone.
 */
export async function setGatewayFinalizer(client: KubeClient, gateway: CachedGateway, present: boolean, attempts = 5): Promise<CachedGateway | undefined> {
  const path = objectPath(gateways, gateway.metadata.name, gateway.metadata.namespace);
  let current = gateway;
  for (let attempt = 1; ; attempt++) {
    const others = (current.metadata.finalizers ?? []).filter((f) => f !== GATEWAY_FINALIZER);
    const finalizers = present ? [...others, GATEWAY_FINALIZER] : others;
    if (hasGatewayFinalizer(current) === present) return current;
    try {
      return await client.patch<CachedGateway>(path, { metadata: { resourceVersion: current.metadata.resourceVersion, finalizers } }, 'merge');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      if (!isConflict(error) || attempt >= attempts) throw error;
      try {
        current = await client.get<CachedGateway>(path);
      } catch (readError) {
        if (isNotFound(readError)) return undefined;
        throw readError;
      }
    }
  }
}
