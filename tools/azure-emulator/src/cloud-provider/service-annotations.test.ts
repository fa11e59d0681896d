import type { V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ANNOTATIONS, planLoadBalancer, type CloudSettings } from './service-annotations.js';

const SETTINGS: CloudSettings = {
  subscriptionId: 's',
  resourceGroup: 'MC_rg',
  location: 'eastus',
  clusterName: 'member-1',
  vnetName: 'aks-vnet',
  subnetName: 'aks-subnet',
};
const UID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';

function service(annotations: Record<string, string>): V1Service {
  return {
    metadata: { name: 'web', namespace: 'shop', uid: UID, annotations },
    spec: {
      type: 'LoadBalancer',
      ports: [
        { port: 80, protocol: 'TCP' },
        { port: 53, protocol: 'UDP' },
      ],
    },
  };
}

describe('planLoadBalancer: what cloud-provider-azure builds from the Service annotations', () => {
  it('a public Service: frontend "a"+UID on <cluster>, a public IP <cluster>-<frontend> with the DNS label', () => {
    expect(planLoadBalancer(service({ [ANNOTATIONS.dnsLabelName]: ' shop-web ' }), SETTINGS)).toEqual({
      serviceName: 'shop/web',
      internal: false,
      loadBalancerName: 'member-1',
      frontendName: 'a0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4',
      subnet: 'aks-subnet',
      publicIpName: 'member-1-a0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4',
      dnsLabel: 'shop-web',
      ports: [
        { port: 80, protocol: 'TCP' },
        { port: 53, protocol: 'UDP' },
      ],
    });
  });

  it('an internal Service with every Private Link annotation', () => {
    const plan = planLoadBalancer(
      service({
        [ANNOTATIONS.internal]: 'true',
        [ANNOTATIONS.internalSubnet]: 'ilb-subnet',
        [ANNOTATIONS.plsCreate]: 'true',
        [ANNOTATIONS.plsName]: 'pls-shop',
        [ANNOTATIONS.plsResourceGroup]: 'rg-pls',
        [ANNOTATIONS.plsVisibility]: 'sub-a sub-b',
        [ANNOTATIONS.plsAutoApproval]: 'sub-a',
        [ANNOTATIONS.plsIpConfigurationSubnet]: 'pls-subnet',
        [ANNOTATIONS.plsIpConfigurationCount]: '3',
        [ANNOTATIONS.plsFqdns]: 'shop.example  www.shop.example',
        [ANNOTATIONS.plsProxyProtocol]: 'True',
      }),
      SETTINGS,
    );
    expect([plan.internal, plan.loadBalancerName, plan.subnet, plan.publicIpName]).toEqual([true, 'member-1-internal', 'ilb-subnet', undefined]);
    expect(plan.privateLink).toEqual({
      name: 'pls-shop',
      resourceGroup: 'rg-pls',
      visibility: ['sub-a', 'sub-b'],
      autoApproval: ['sub-a'],
      ipConfigurationCount: 3,
      subnet: 'pls-subnet',
      fqdns: ['shop.example', 'www.shop.example'],
      proxyProtocol: true,
    });
  });

  it('defaults a Private Link Service to pls-<frontend> in the node resource group on the frontend subnet', () => {
    const plan = planLoadBalancer(service({ [ANNOTATIONS.internal]: 'true', [ANNOTATIONS.plsCreate]: 'true' }), SETTINGS);
    expect(plan.privateLink).toEqual({
      name: 'pls-a0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4',
      resourceGroup: 'MC_rg',
      visibility: [],
      autoApproval: [],
      ipConfigurationCount: 1,
      subnet: 'aks-subnet',
      fqdns: [],
      proxyProtocol: false,
    });
    expect(planLoadBalancer(service({ [ANNOTATIONS.internal]: 'false', [ANNOTATIONS.plsCreate]: 'false' }), SETTINGS).privateLink).toBeUndefined();
  });

  it('refuses invalid annotations naming the annotation, the value and what is expected', () => {
    expect(() => planLoadBalancer(service({ [ANNOTATIONS.plsCreate]: 'true' }), SETTINGS)).toThrow(
      `${ANNOTATIONS.plsCreate}: a Private Link Service needs an internal load balancer (${ANNOTATIONS.internal}: "true").`,
    );
    expect(() =>
      planLoadBalancer(service({ [ANNOTATIONS.internal]: 'true', [ANNOTATIONS.plsCreate]: 'true', [ANNOTATIONS.plsIpConfigurationCount]: '9' }), SETTINGS),
    ).toThrow(`${ANNOTATIONS.plsIpConfigurationCount} must be an integer from 1 to 8; got '9'.`);
  });
});
