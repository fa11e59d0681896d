import { NetworkManagementClient } from '@azure/arm-network';
import { startControlPlane, type ControlPlane } from '@fleet-gateway/control-plane';
import { CoreV1Api, type V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningEmulator } from '../emulator.js';
import { sdkClientOptions, stubCredential } from '../sdk-options.js';
import { startBackend, type Backend } from '../testing/backends.js';
import { CloudProviderStandIn, LOAD_BALANCER_FINALIZER } from './cloud-provider.js';

const SUBSCRIPTION = '22222222-0000-0000-0000-000000000001';
const NODE_RG = 'MC_fleet_member-1_eastus';
let plane: ControlPlane;
let emulator: RunningEmulator;
let standIn: CloudProviderStandIn;
let core: CoreV1Api;
let network: NetworkManagementClient;
let backend: Backend;

beforeAll(async () => {
  [plane, emulator, backend] = await Promise.all([
    startControlPlane({ clusters: ['member-1'], controllerManager: false }),
    start({ lroDelayMs: 0, throttling: false }),
    startBackend('member-1-app'),
  ]);
  const kubeConfig = plane.cluster('member-1').kubeConfig();
  core = kubeConfig.makeApiClient(CoreV1Api);
  network = new NetworkManagementClient(stubCredential, SUBSCRIPTION, sdkClientOptions(emulator));
  standIn = new CloudProviderStandIn({ kubeConfig, emulator, settings: { subscriptionId: SUBSCRIPTION, resourceGroup: NODE_RG, clusterName: 'member-1' } });
  await standIn.start();
}, 120_000);

afterAll(async () => {
  await standIn?.stop();
  await Promise.all([plane?.stop(), emulator?.stop(), backend?.close()]);
});

function loadBalancerService(name: string, annotations: Record<string, string>): V1Service {
  return {
    metadata: { name, namespace: 'default', annotations },
    spec: { type: 'LoadBalancer', selector: { app: name }, ports: [{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }] },
  };
}

/** Polls the Service (bounded) until `ready` holds. */
async function waitForService(name: string, ready: (service: V1Service | undefined) => boolean): Promise<V1Service | undefined> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const service = await core.readNamespacedService({ name, namespace: 'default' }).catch(() => undefined);
    if (ready(service)) return service;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`service ${name} did not reach the expected state; stand-in errors: ${JSON.stringify(standIn.errors())}`);
}

describe('cloud-provider stand-in against a real kube-apiserver', () => {
  it('gives an internal Service a frontend on <cluster>-internal, a PLS with AKS names and tags, an address, and traffic', async () => {
    const created = await core.createNamespacedService({
      namespace: 'default',
      body: loadBalancerService('web', {
        'service.beta.kubernetes.io/azure-load-balancer-internal': 'true',
        'service.beta.kubernetes.io/azure-pls-create': 'true',
        'service.beta.kubernetes.io/azure-pls-name': 'pls-web',
        'service.beta.kubernetes.io/azure-pls-visibility': '*',
      }),
    });
    standIn.setBackend('default', 'web', 8080, { host: '127.0.0.1', port: backend.port });
    const service = await waitForService('web', (s) => (s?.status?.loadBalancer?.ingress?.length ?? 0) > 0);
    const ip = service?.status?.loadBalancer?.ingress?.[0]?.ip as string;
    expect(ip).toMatch(/^10\.224\./);
    expect(service?.metadata?.finalizers).toContain(LOAD_BALANCER_FINALIZER);

    const frontendName = `a${String(created.metadata?.uid).replace(/-/g, '')}`.slice(0, 32);
    const lb = await network.loadBalancers.get(NODE_RG, 'member-1-internal');
    const frontend = lb.frontendIPConfigurations?.find((f) => f.name === frontendName);
    expect(frontend?.privateIPAddress).toBe(ip);
    expect(lb.loadBalancingRules?.map((rule) => rule.name)).toEqual([`${frontendName}-TCP-8080`]);

    const pls = await network.privateLinkServices.get(NODE_RG, 'pls-web');
    expect(pls.tags).toEqual({ 'k8s-azure-cluster-name': 'member-1', 'k8s-azure-owner-service': 'default/web' });
    expect(pls.loadBalancerFrontendIpConfigurations?.[0]?.id).toBe(frontend?.id);
    expect(pls.visibility?.subscriptions).toEqual(['*']);
    expect(pls.ipConfigurations?.[0]?.name).toBe('aks-subnet-pls-web-dynamic-0');

    const state = emulator.admin.dumpState() as { edges: { addresses: Array<{ address: string; target: { port: number } }> } };
    expect(state.edges.addresses).toContainEqual({ address: `${ip}:8080`, target: { host: '127.0.0.1', port: backend.port } });
  }, 60_000);

  it('gives a public Service a public IP with its DNS label; deleting Services removes what was made', async () => {
    await core.createNamespacedService({
      namespace: 'default',
      body: loadBalancerService('public', { 'service.beta.kubernetes.io/azure-dns-label-name': 'fleet-public-app' }),
    });
    const service = await waitForService('public', (s) => (s?.status?.loadBalancer?.ingress?.length ?? 0) > 0);
    const ip = service?.status?.loadBalancer?.ingress?.[0]?.ip;
    const publicIps = [];
    for await (const pip of network.publicIPAddresses.list(NODE_RG)) publicIps.push(pip);
    expect(publicIps.map((pip) => [pip.ipAddress, pip.dnsSettings?.fqdn, pip.tags?.['k8s-azure-service']])).toEqual([
      [ip, 'fleet-public-app.eastus.cloudapp.azure.com', 'default/public'],
    ]);
    expect((await network.loadBalancers.get(NODE_RG, 'member-1')).frontendIPConfigurations?.[0]?.publicIPAddress?.id).toBe(publicIps[0]?.id);

    await core.deleteNamespacedService({ name: 'public', namespace: 'default' });
    await core.deleteNamespacedService({ name: 'web', namespace: 'default' });
    await waitForService('public', (s) => s === undefined);
    await waitForService('web', (s) => s === undefined);
    const gone = async (promise: Promise<unknown>) => promise.then(() => 200, (error: { statusCode?: number }) => error.statusCode);
    expect(await gone(network.privateLinkServices.get(NODE_RG, 'pls-web'))).toBe(404);
    expect(await gone(network.loadBalancers.get(NODE_RG, 'member-1-internal'))).toBe(404);
    expect(await gone(network.loadBalancers.get(NODE_RG, 'member-1'))).toBe(404);
    const remaining = [];
    for await (const pip of network.publicIPAddresses.list(NODE_RG)) remaining.push(pip);
    expect(remaining).toEqual([]);
  }, 60_000);
});
