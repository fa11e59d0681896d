import { describe, expect, it } from 'vitest';
import type { LoadBalancerView, PrivateLinkServiceView } from './azure-views.js';
import { discoverPrivateLink } from './discover-private-link.js';
import { privateLinkTargetOf, SERVICE_ANNOTATIONS, type PrivateLinkTarget, type ServiceFacts } from './service-facts.js';

const RG = '/subscriptions/s/resourceGroups/mc-1/providers/Microsoft.Network';
const FRONTEND = `${RG}/loadBalancers/kubernetes-internal/frontendIPConfigurations/a123`;
const LB: LoadBalancerView = {
  id: `${RG}/loadBalancers/kubernetes-internal`,
  name: 'kubernetes-internal',
  frontends: [
    { id: `${RG}/loadBalancers/kubernetes-internal/frontendIPConfigurations/a999`, name: 'a999', privateIPAddress: '10.224.0.9' },
    { id: FRONTEND, name: 'a123', privateIPAddress: '10.224.0.5' },
  ],
};
const PLS: PrivateLinkServiceView = {
  id: `${RG}/privateLinkServices/pls-a123`,
  name: 'pls-a123',
  location: 'eastus2',
  alias: 'pls-a123.guid.eastus2.azure.privatelinkservice',
  frontendIds: [FRONTEND.toUpperCase()],
  tags: { 'k8s-azure-cluster-name': 'kubernetes', 'k8s-azure-owner-service': 'shop/web' },
  connections: [],
};
const FACTS: ServiceFacts = {
  namespace: 'shop',
  name: 'web',
  ingressIP: '10.224.0.5',
  annotations: { [SERVICE_ANNOTATIONS.internal]: 'true', [SERVICE_ANNOTATIONS.plsCreate]: 'true' },
  nodeResourceGroup: 'mc-1',
};

function target(facts: Partial<ServiceFacts> = {}): PrivateLinkTarget {
  const result = privateLinkTargetOf({ ...FACTS, ...facts });
  if ('state' in result) throw new Error(result.message);
  return result;
}

describe('privateLinkTargetOf', () => {
  it('needs an internal Service asking for a Private Link Service, with an address; no Azure call decides this', () => {
    expect(privateLinkTargetOf({ ...FACTS, annotations: { [SERVICE_ANNOTATIONS.plsCreate]: 'true' } })).toMatchObject({
      state: 'unknown',
      reason: 'NotInternal',
    });
    expect(privateLinkTargetOf({ ...FACTS, annotations: { [SERVICE_ANNOTATIONS.internal]: 'true' } })).toMatchObject({
      state: 'unknown',
      reason: 'PrivateLinkNotRequested',
    });
    expect(privateLinkTargetOf({ ...FACTS, ingressIP: undefined })).toMatchObject({ state: 'unknown', reason: 'AddressPending' });
  });

  it('honours azure-pls-resource-group and azure-pls-name, defaulting to the node resource group and kubernetes-internal', () => {
    expect(target()).toEqual({
      serviceKey: 'shop/web',
      address: '10.224.0.5',
      loadBalancerResourceGroup: 'mc-1',
      loadBalancerName: 'kubernetes-internal',
      privateLinkServiceResourceGroup: 'mc-1',
    });
    const annotated = target({
      annotations: { ...FACTS.annotations, [SERVICE_ANNOTATIONS.plsName]: ' my-pls ', [SERVICE_ANNOTATIONS.plsResourceGroup]: 'rg-app' },
    });
    expect(annotated).toMatchObject({ annotatedName: 'my-pls', privateLinkServiceResourceGroup: 'rg-app', loadBalancerResourceGroup: 'mc-1' });
  });
});

describe('discoverPrivateLink', () => {
  it('finds the frontend by address and the service by frontend id (case-insensitively), with alias, location and ownership', () => {
    const found = discoverPrivateLink(target(), [LB], [PLS]);
    expect(found).toEqual({
      state: 'found',
      privateLinkService: {
        id: PLS.id,
        name: 'pls-a123',
        location: 'eastus2',
        alias: PLS.alias,
        frontendIpConfigurationId: FRONTEND,
        internalAddress: '10.224.0.5',
        ownership: 'this-service',
      },
      connections: [],
    });
  });

  it('says what is missing, naming the default pls-<frontend> name, and never finds a service on another frontend', () => {
    expect(discoverPrivateLink(target(), [], [PLS])).toMatchObject({ reason: 'LoadBalancerNotFound' });
    expect(discoverPrivateLink(target({ ingressIP: '10.224.0.77' }), [LB], [PLS])).toMatchObject({ reason: 'FrontendNotFound' });
    const other = { ...PLS, frontendIds: [LB.frontends[0]?.id ?? ''] };
    const missing = discoverPrivateLink(target(), [LB], [other]);
    expect(missing).toMatchObject({ state: 'unknown', reason: 'PrivateLinkServiceNotFound' });
    expect('message' in missing && missing.message).toContain('pls-a123');
  });

  it('an existing service keeps its name, but an azure-pls-name that differs is a mismatch, not a find', () => {
    const renamed = { ...PLS, name: 'legacy' };
    expect(discoverPrivateLink(target(), [LB], [renamed])).toMatchObject({ state: 'found', privateLinkService: { name: 'legacy' } });
    const annotated = target({ annotations: { ...FACTS.annotations, [SERVICE_ANNOTATIONS.plsName]: 'wanted' } });
    expect(discoverPrivateLink(annotated, [LB], [renamed])).toMatchObject({ state: 'unknown', reason: 'PrivateLinkServiceNameMismatch' });
    expect(discoverPrivateLink(annotated, [LB], [{ ...PLS, name: 'WANTED' }])).toMatchObject({ state: 'found' });
  });

  it('reads ownership from cloud-provider-azure tags: shared with another Service, or unmanaged', () => {
    const shared = discoverPrivateLink(target(), [LB], [{ ...PLS, tags: { ...PLS.tags, 'k8s-azure-owner-service': 'shop/api' } }]);
    expect(shared).toMatchObject({ privateLinkService: { ownership: 'shared', ownerService: 'shop/api' } });
    expect(discoverPrivateLink(target(), [LB], [{ ...PLS, tags: {} }])).toMatchObject({ privateLinkService: { ownership: 'unmanaged' } });
  });

  it('a service without alias is not ready', () => {
    const { alias: _alias, ...creating } = PLS;
    expect(discoverPrivateLink(target(), [LB], [{ ...creating, provisioningState: 'Updating' }])).toMatchObject({ reason: 'PrivateLinkServiceNotReady' });
  });
});
