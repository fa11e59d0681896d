import type { CachedInternalServiceExport } from '@fleet-gateway/fleet-hub';
import type { GlobalGateway } from '@fleet-gateway/model';
import type { GatewayOwner } from './private-link-requests.js';

export type FrontDoorEntry = NonNullable<NonNullable<CachedInternalServiceExport['status']>['frontDoors']>[number];

/** The InternalServiceExports (`<namespace>/<name>`) whose clusters are origins of the model's backends. */
export function exportsUsedBy(model: GlobalGateway): string[] {
  const keys = model.backends.flatMap((b) => b.origins.map((o) => `${o.source.namespace}/${o.source.name}`));
  return [...new Set(keys)].sort();
}

export function frontDoorEntry(gateway: GatewayOwner, profile: string, frontDoorID: string): FrontDoorEntry {
  return { gateway: gateway.key, gatewayUID: gateway.uid, profile, frontDoorID };
}

/** Entries of one Gateway in an export's status lists, whichever UID they carry (a recreated Gateway replaces them). */
export function entryRule(gateway: GatewayOwner) {
  return { keyFields: ['gateway'], isOurs: (entry: { gateway: string }) => entry.gateway === gateway.key } as const;
}
