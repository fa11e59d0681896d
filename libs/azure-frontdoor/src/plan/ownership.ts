import type { GatewayIdentity } from '@fleet-gateway/model';
import { CONTROLLER_NAME } from '@fleet-gateway/model';

/** Tag keys on the profile and endpoint (the AFD kinds that carry tags); children belong to their profile. */
export const OWNERSHIP_TAGS = {
  hubIdentity: 'fleet-networking-hub-identity',
  gatewayNamespace: 'fleet-networking-gateway-namespace',
  gatewayName: 'fleet-networking-gateway-name',
  gatewayUid: 'fleet-networking-gateway-uid',
  controller: 'fleet-networking-controller',
} as const;

/**
 * The one builder of the hub identity tag value: the subscription (lower case, as ARM spells ids back) and the hub
 * cluster's name, so that two hubs programming one subscription never share an identity.
 */
export function hubIdentityOf(hub: { readonly subscriptionId: string; readonly hubName: string }): string {
  return `subscription/${hub.subscriptionId.toLowerCase()}/cluster/${hub.hubName}`;
}

/** Who owns a Gateway's AFD resources: this hub, this Gateway (by UID), this controller. */
export interface Owner {
  /** Identifies the hub (`hubIdentityOf`); two hubs never share one. */
  readonly hubIdentity: string;
  readonly gateway: Pick<GatewayIdentity, 'namespace' | 'name' | 'uid'>;
}

export function ownershipTags(owner: Owner): Record<string, string> {
  return {
    [OWNERSHIP_TAGS.hubIdentity]: owner.hubIdentity,
    [OWNERSHIP_TAGS.gatewayNamespace]: owner.gateway.namespace,
    [OWNERSHIP_TAGS.gatewayName]: owner.gateway.name,
    [OWNERSHIP_TAGS.gatewayUid]: owner.gateway.uid,
    [OWNERSHIP_TAGS.controller]: CONTROLLER_NAME,
  };
}

export type Ownership = { readonly owned: true } | { readonly owned: false; readonly reason: string };

/**
 * "Can I touch this?": only a resource carrying every one of our tags with our values. Anything else (untagged,
 * another hub, another Gateway or an older Gateway of the same name) is foreign and is never adopted, changed or
 * deleted.
 */
export function checkOwnership(tags: Readonly<Record<string, string>> | undefined, owner: Owner): Ownership {
  const expected = ownershipTags(owner);
  const actual = tags ?? {};
  const present = Object.keys(expected).filter((key) => actual[key] !== undefined);
  if (present.length === 0) return { owned: false, reason: 'it carries none of the Fleet Gateway ownership tags' };
  const mismatched = Object.entries(expected).filter(([key, value]) => actual[key] !== value);
  if (mismatched.length === 0) return { owned: true };
  const details = mismatched.map(([key, value]) => `${key} is ${JSON.stringify(actual[key] ?? null)}, expected ${JSON.stringify(value)}`);
  return { owned: false, reason: `its ownership tags are not ours: ${details.join('; ')}` };
}
