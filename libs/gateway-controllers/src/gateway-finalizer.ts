import { hasFinalizer, setFinalizer, type KubeClient } from '@fleet-gateway/controller';
import { gateways, type CachedGateway } from './gateway-api-resources.js';

/** Held on a Gateway from just before its first Azure write until its AFD profile is gone (or orphaned). */
export const GATEWAY_FINALIZER = 'networking.fleet.azure.com/afd-profile-cleanup';

export function hasGatewayFinalizer(gateway: CachedGateway): boolean {
  return hasFinalizer(gateway, GATEWAY_FINALIZER);
}

/** Adds or removes our finalizer (re-read on conflict: the Gateway's cache copy is often behind our status writes). */
export function setGatewayFinalizer(client: KubeClient, gateway: CachedGateway, present: boolean): Promise<CachedGateway | undefined> {
  return setFinalizer(client, gateways, gateway, GATEWAY_FINALIZER, present, 5);
}
