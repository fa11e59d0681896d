import { describe, expect, it } from 'vitest';
import { LoadBalancerOriginDiscovery } from './load-balancer-origin-discovery.js';
import type { CachedService } from './member-resources.js';
import { observePublicOrigin, type PublicIpDnsZone } from './public-origin.js';
import { hubExportOf, serviceOf } from './test-support/objects.js';

const eastus: PublicIpDnsZone = { region: 'eastus', dnsZoneSuffix: 'cloudapp.azure.com' };
const unknownRegion: PublicIpDnsZone = {
  region: undefined,
  unknownBecause: 'no node carries the label topology.kubernetes.io/region',
  dnsZoneSuffix: 'cloudapp.azure.com',
};
const observe = (service: CachedService, zone = eastus, frontDoorIds: string[] = []) =>
  observePublicOrigin({ service, zone, frontDoorIds, hubExport: 'fleet-member-member-1/shop-web' });
const lb = (annotations: Record<string, string> = {}, extra: Parameters<typeof serviceOf>[0] = {}) =>
  serviceOf({ type: 'LoadBalancer', ingress: [{ ip: '20.1.2.3' }], annotations, ...extra });
const locked = { 'service.beta.kubernetes.io/azure-allowed-service-tags': 'AzureFrontDoor.Backend' };
const condition = (service: CachedService, type: string, zone = eastus, ids: string[] = []) =>
  observe(service, zone, ids).conditions.find((c) => c.type === type);

describe('observePublicOrigin: the address', () => {
  it('publishes the load balancer IP', () => {
    const o = observe(lb(locked));
    expect(o.fields).toEqual({ publicAddress: '20.1.2.3' });
    expect(o.recheck).toBeUndefined();
    expect(o.conditions[0]).toEqual({
      type: 'networking.fleet.azure.com/OriginPublished',
      status: 'True',
      reason: 'PublicAddressPublished',
      message: 'published the load balancer address 20.1.2.3 as the public address of InternalServiceExport fleet-member-member-1/shop-web',
    });
  });

  it('publishes the FQDN of the DNS label in the cluster’s region and cloud', () => {
    const service = lb({ ...locked, 'service.beta.kubernetes.io/azure-dns-label-name': 'Shop-Web' });
    expect(observe(service).fields).toEqual({ publicAddress: 'shop-web.eastus.cloudapp.azure.com' });
    expect(observe(service, { region: 'chinaeast2', dnsZoneSuffix: 'cloudapp.chinacloudapi.cn' }).fields.publicAddress).toBe(
      'shop-web.chinaeast2.cloudapp.chinacloudapi.cn',
    );
    expect(observe(service).conditions[0]?.message).toContain('shop-web.eastus.cloudapp.azure.com (DNS label Shop-Web of the public IP 20.1.2.3)');
  });

  it('publishes the IP, and says why, when the region is unknown', () => {
    const o = observe(lb({ 'service.beta.kubernetes.io/azure-dns-label-name': 'shop' }), unknownRegion);
    expect(o.fields).toEqual({ publicAddress: '20.1.2.3' });
    expect(o.conditions[0]?.message).toContain(
      "the FQDN of DNS label shop is not known because this cluster's Azure region is not (no node carries the label topology.kubernetes.io/region)",
    );
  });

  it('publishes the IP when the DNS label annotation is empty (the cloud provider removes the label)', () => {
    expect(observe(lb({ 'service.beta.kubernetes.io/azure-dns-label-name': '' })).fields).toEqual({ publicAddress: '20.1.2.3' });
  });

  it('takes a hostname ingress as it is', () => {
    expect(observe(serviceOf({ type: 'LoadBalancer', ingress: [{ hostname: 'lb.example.com' }] })).fields).toEqual({ publicAddress: 'lb.example.com' });
  });

  it('waits, with the reason on the ServiceExport, until the Service has an address', () => {
    const o = observe(serviceOf({ type: 'LoadBalancer' }));
    expect(o.fields).toEqual({});
    expect(o.recheck).toEqual({ afterMs: 15_000, reason: 'Service shop/web has no load balancer address yet' });
    expect(o.conditions[0]).toMatchObject({ status: 'False', reason: 'LoadBalancerAddressPending' });
    expect(o.conditions[0]?.message).toContain('status.loadBalancer.ingress is empty');
  });
});

describe('observePublicOrigin: restricted to Front Door', () => {
  const type = 'networking.fleet.azure.com/OriginRestrictedToFrontDoor';

  it('warns when the load balancer is open to the Internet, naming the annotation to set and X-Azure-FDID', () => {
    const c = condition(lb(), type);
    expect(c).toMatchObject({ status: 'False', reason: 'NotRestrictedToFrontDoor' });
    expect(c?.message).toBe(
      'the public load balancer of Service shop/web admits the whole Internet (no allowed service tags or IP ranges), so clients can bypass Front Door and its WAF: ' +
        'set the annotation service.beta.kubernetes.io/azure-allowed-service-tags: AzureFrontDoor.Backend (and no other tags or IP ranges), ' +
        'and the backend should also reject requests whose X-Azure-FDID header is not the frontDoorId the hub publishes in InternalServiceExport ' +
        'fleet-member-member-1/shop-web status.frontDoors once a Gateway uses this export (none does yet)',
    );
  });

  it('warns when other tags or IP ranges are allowed beside Front Door', () => {
    const tags = condition(lb({ 'service.beta.kubernetes.io/azure-allowed-service-tags': 'AzureFrontDoor.Backend, Internet' }), type);
    expect(tags?.status).toBe('False');
    expect(tags?.message).toContain('admits service tag Internet, so clients can bypass');
    const ranges = condition(lb(locked, { sourceRanges: ['203.0.113.0/24'] }), type);
    expect(ranges?.message).toContain('admits IP range 203.0.113.0/24');
    // Ranges alone are not the whole Internet, and still not Front Door only.
    const rangesOnly = condition(lb({}, { sourceRanges: ['203.0.113.0/24'] }), type);
    expect(rangesOnly).toMatchObject({ status: 'False', reason: 'NotRestrictedToFrontDoor' });
    expect(rangesOnly?.message).toContain('admits IP range 203.0.113.0/24, so clients');
    const annotated = condition(lb({ ...locked, 'service.beta.kubernetes.io/azure-allowed-ip-ranges': '198.51.100.0/24' }), type);
    expect(annotated?.status).toBe('False');
    expect(condition(lb({ 'service.beta.kubernetes.io/azure-allowed-service-tags': 'AzureCloud' }), type)?.message).toContain('admits service tag AzureCloud');
  });

  it('is satisfied with AzureFrontDoor.Backend alone and still names the frontDoorIds the backend must require', () => {
    const c = condition(lb({ 'service.beta.kubernetes.io/azure-allowed-service-tags': ' AzureFrontDoor.Backend ' }), type, eastus, ['fd-1']);
    expect(c).toMatchObject({ status: 'True', reason: 'RestrictedToFrontDoor' });
    expect(c?.message).toBe(
      'the load balancer of Service shop/web admits only AzureFrontDoor.Backend; that tag covers every Front Door profile, so the backend should also reject requests ' +
        'whose X-Azure-FDID header is not fd-1 (status.frontDoors of InternalServiceExport fleet-member-member-1/shop-web)',
    );
    expect(condition(lb(locked), type, eastus, ['fd-1', 'fd-2'])?.message).toContain('is not one of fd-1, fd-2');
  });
});

describe('LoadBalancerOriginDiscovery', () => {
  const zone = { zone: async () => eastus };
  const context = {
    hubExport: hubExportOf({ frontDoorIds: ['fd-b', 'fd-a', 'fd-b'] }),
    hubExportRef: 'fleet-member-member-1/shop-web',
    signal: new AbortController().signal,
  };

  it('has no origin for a Service that is not a load balancer', async () => {
    expect(await new LoadBalancerOriginDiscovery({ zone }).observe(serviceOf(), context)).toEqual({ fields: {}, conditions: [] });
  });

  it('reads the frontDoorIds the hub published, distinct and sorted', async () => {
    const o = await new LoadBalancerOriginDiscovery({ zone }).observe(lb(locked), context);
    expect(o.conditions[1]?.message).toContain('is not one of fd-a, fd-b');
  });

  it('never publishes an internal load balancer as a public origin (the annotation in any case, as the cloud provider reads it)', async () => {
    for (const value of ['true', 'True', 'TRUE']) {
      const o = await new LoadBalancerOriginDiscovery({ zone }).observe(lb({ 'service.beta.kubernetes.io/azure-load-balancer-internal': value }), context);
      expect(o.fields).toEqual({});
      expect(o.conditions).toEqual([
        {
          type: 'networking.fleet.azure.com/OriginPublished',
          status: 'Unknown',
          reason: 'PrivateLinkDiscoveryDisabled',
          message:
            'Service shop/web is an internal load balancer and Private Link origin discovery is not enabled on this member agent, so InternalServiceExport fleet-member-member-1/shop-web carries no origin for it',
        },
      ]);
    }
  });

  it('hands internal load balancers to the Private Link discovery when there is one', async () => {
    const privateLink = { observe: async () => ({ fields: { internalLoadBalancerIP: '10.1.0.4' }, conditions: [] }) };
    const o = await new LoadBalancerOriginDiscovery({ zone, privateLink }).observe(
      lb({ 'service.beta.kubernetes.io/azure-load-balancer-internal': 'true' }),
      context,
    );
    expect(o.fields).toEqual({ internalLoadBalancerIP: '10.1.0.4' });
  });
});
