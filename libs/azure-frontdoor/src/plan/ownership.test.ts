import { describe, expect, it } from 'vitest';
import { checkOwnership, hubIdentityOf, OWNERSHIP_TAGS, ownershipTags, type Owner } from './ownership.js';

const owner: Owner = { hubIdentity: 'subscription/s1/cluster/hub', gateway: { namespace: 'store', name: 'edge', uid: 'uid-1' } };

describe('ownership', () => {
  it('tags carry hub, Gateway namespace, name and UID, and the controller', () => {
    expect(ownershipTags(owner)).toEqual({
      'fleet-networking-hub-identity': 'subscription/s1/cluster/hub',
      'fleet-networking-gateway-namespace': 'store',
      'fleet-networking-gateway-name': 'edge',
      'fleet-networking-gateway-uid': 'uid-1',
      'fleet-networking-controller': 'networking.fleet.azure.com/afd',
    });
  });

  it('owns only what carries every tag with our values; extra tags do not matter', () => {
    expect(checkOwnership({ ...ownershipTags(owner), team: 'web' }, owner)).toEqual({ owned: true });
  });

  it('refuses untagged resources', () => {
    expect(checkOwnership(undefined, owner)).toEqual({ owned: false, reason: 'it carries none of the Fleet Gateway ownership tags' });
    expect(checkOwnership({ env: 'prod' }, owner).owned).toBe(false);
  });

  it('refuses another hub, another Gateway UID, or a partial tag set, naming the mismatch', () => {
    const otherHub = checkOwnership({ ...ownershipTags(owner), [OWNERSHIP_TAGS.hubIdentity]: 'subscription/s1/cluster/other' }, owner);
    expect(otherHub).toEqual({
      owned: false,
      reason: 'its ownership tags are not ours: fleet-networking-hub-identity is "subscription/s1/cluster/other", expected "subscription/s1/cluster/hub"',
    });
    expect(checkOwnership({ ...ownershipTags(owner), [OWNERSHIP_TAGS.gatewayUid]: 'uid-0' }, owner).owned).toBe(false);
    const { [OWNERSHIP_TAGS.controller]: _dropped, ...partial } = ownershipTags(owner);
    const result = checkOwnership(partial, owner);
    expect(result.owned).toBe(false);
    expect(result.owned ? '' : result.reason).toContain('fleet-networking-controller is null');
  });
});

describe('hubIdentityOf', () => {
  it('names the subscription (lower case, as ARM spells ids) and the hub cluster, so two hubs of one subscription differ', () => {
    const subscriptionId = 'AAAAAAAA-2222-3333-4444-555555555555';
    expect(hubIdentityOf({ subscriptionId, hubName: 'hub-east' })).toBe('subscription/aaaaaaaa-2222-3333-4444-555555555555/cluster/hub-east');
    expect(hubIdentityOf({ subscriptionId, hubName: 'hub-west' })).not.toBe(hubIdentityOf({ subscriptionId, hubName: 'hub-east' }));
  });
});
