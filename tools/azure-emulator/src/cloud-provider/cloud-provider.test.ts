import { CdnManagementClient } from '@azure/arm-cdn';
import { NetworkManagementClient } from '@azure/arm-network';
import { startControlPlane, type ControlPlane } from '@fleet-gateway/control-plane';
import { CoreV1Api, makeInformer, type KubeConfig, type V1Service } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningEmulator } from '../emulator.js';
import { FAST_POLLING, sdkClientOptions, stubCredential } from '../sdk-options.js';
import { edgeRequest, startBackend, type Backend } from '../testing/backends.js';
import { CloudProviderStandIn, LOAD_BALANCER_FINALIZER } from './cloud-provider.js';
import { ANNOTATIONS } from './service-annotations.js';

const SUBSCRIPTION = '22222222-0000-0000-0000-000000000001';
const NODE_RG = 'MC_fleet_member-1_eastus';
const PLS_RG = 'rg-private-link';
const AFD_SUBSCRIPTION = 'afd00000-0000-4000-8000-00000000afd0';
let plane: ControlPlane;
let kubeConfig: KubeConfig;
let emulator: RunningEmulator;
let standIn: CloudProviderStandIn;
let core: CoreV1Api;
let network: NetworkManagementClient;
let cdn: CdnManagementClient;
let backend: Backend;

beforeAll(async () => {
  [plane, emulator, backend] = await Promise.all([
    startControlPlane({ clusters: ['member-1'], controllerManager: false }),
    start({ lroDelayMs: 0, throttling: false, afdManagedSubscriptionId: AFD_SUBSCRIPTION, privateLink: { connectionDelayMs: 0, approvalPropagationMs: 0 } }),
    startBackend('member-1-app'),
  ]);
  // AKS creates the node resource group with the cluster; the PLS resource group is the user's.
  for (const name of [NODE_RG, PLS_RG]) emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name });
  kubeConfig = plane.cluster('member-1').kubeConfig();
  core = kubeConfig.makeApiClient(CoreV1Api);
  network = new NetworkManagementClient(stubCredential, SUBSCRIPTION, sdkClientOptions(emulator));
  cdn = new CdnManagementClient(stubCredential, SUBSCRIPTION, sdkClientOptions(emulator));
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

/** Watches the Service (an informer on the real API server) until `ready` holds for it; undefined means deleted. */
async function waitForService(name: string, ready: (service: V1Service | undefined) => boolean): Promise<V1Service | undefined> {
  const informer = makeInformer(kubeConfig, '/api/v1/namespaces/default/services', () => core.listNamespacedService({ namespace: 'default' }));
  try {
    return await new Promise<V1Service | undefined>((resolve, reject) => {
      const timeout = setTimeout(
        () => reject(new Error(`service ${name} did not reach the expected state; stand-in errors: ${JSON.stringify(standIn.errors())}`)),
        30_000,
      );
      // Only once the initial list is in the cache: before that, a Service not yet listed would look deleted.
      let synced = false;
      const check = (): void => {
        if (!synced) return;
        const service = informer.get(name, 'default');
        if (!ready(service)) return;
        clearTimeout(timeout);
        resolve(service);
      };
      for (const event of ['add', 'update', 'delete'] as const) informer.on(event, check);
      informer.on('error', reject);
      informer.start().then(() => {
        synced = true;
        check();
      }, reject);
    });
  } finally {
    await informer.stop();
  }
}

const hasIngress = (service: V1Service | undefined): boolean => (service?.status?.loadBalancer?.ingress?.length ?? 0) > 0;
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (error: { statusCode?: number }) => error.statusCode,
  );

describe('cloud-provider stand-in against a real kube-apiserver', () => {
  it('gives an internal Service a frontend on <cluster>-internal, a PLS with AKS names and tags, an address, and traffic through AFD', async () => {
    const created = await core.createNamespacedService({
      namespace: 'default',
      body: loadBalancerService('web', {
        [ANNOTATIONS.internal]: 'true',
        [ANNOTATIONS.plsCreate]: 'true',
        [ANNOTATIONS.plsName]: 'pls-web',
        [ANNOTATIONS.plsVisibility]: '*',
      }),
    });
    standIn.setBackend('default', 'web', 8080, { host: '127.0.0.1', port: backend.port });
    const service = await waitForService('web', hasIngress);
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

    // AFD reaches the Service's address through the PLS once its connection is approved.
    await cdn.profiles.beginCreateAndWait(NODE_RG, 'fd', { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } }, FAST_POLLING);
    const endpoint = await cdn.afdEndpoints.beginCreateAndWait(NODE_RG, 'fd', 'web', { location: 'global' }, FAST_POLLING);
    await cdn.afdOriginGroups.beginCreateAndWait(NODE_RG, 'fd', 'og', {}, FAST_POLLING);
    await cdn.afdOrigins.beginCreateAndWait(
      NODE_RG,
      'fd',
      'og',
      'member-1',
      { hostName: ip, httpPort: 8080, sharedPrivateLinkResource: { privateLink: { id: pls.id }, privateLinkLocation: 'eastus', requestMessage: 'fleet-web' } },
      FAST_POLLING,
    );
    await cdn.routes.beginCreateAndWait(
      NODE_RG,
      'fd',
      'web',
      'all',
      {
        originGroup: { id: `${pls.id?.split('/providers/')[0]}/providers/Microsoft.Cdn/profiles/fd/originGroups/og` },
        linkToDefaultDomain: 'Enabled',
        forwardingProtocol: 'HttpOnly',
      },
      FAST_POLLING,
    );
    const [connection] = (await network.privateLinkServices.get(NODE_RG, 'pls-web')).privateEndpointConnections ?? [];
    expect(connection?.privateLinkServiceConnectionState?.description).toBe('fleet-web');
    await network.privateLinkServices.updatePrivateEndpointConnection(NODE_RG, 'pls-web', connection?.name as string, {
      privateLinkServiceConnectionState: { status: 'Approved' },
    });
    await emulator.admin.whenPropagated();
    const answer = await edgeRequest(emulator.edgeUrl, endpoint.hostName as string, '/orders');
    expect([answer.status, answer.headers['x-emulator-origin']]).toEqual([200, 'member-1']);
    expect(backend.requests.at(-1)?.path).toBe('/orders');
  }, 60_000);

  it('honours the PLS resource group, auto-approval, NAT IP count, FQDN and proxy protocol annotations', async () => {
    await core.createNamespacedService({
      namespace: 'default',
      body: loadBalancerService('api', {
        [ANNOTATIONS.internal]: 'true',
        [ANNOTATIONS.plsCreate]: 'true',
        [ANNOTATIONS.plsName]: 'pls-api',
        [ANNOTATIONS.plsResourceGroup]: PLS_RG,
        [ANNOTATIONS.plsVisibility]: '*',
        [ANNOTATIONS.plsAutoApproval]: SUBSCRIPTION,
        [ANNOTATIONS.plsIpConfigurationCount]: '2',
        [ANNOTATIONS.plsFqdns]: 'api.contoso.example',
        [ANNOTATIONS.plsProxyProtocol]: 'true',
      }),
    });
    await waitForService('api', hasIngress);
    const pls = await network.privateLinkServices.get(PLS_RG, 'pls-api');
    expect(pls.autoApproval?.subscriptions).toEqual([SUBSCRIPTION]);
    expect(pls.ipConfigurations?.map((configuration) => configuration.name)).toEqual(['aks-subnet-pls-api-dynamic-0', 'aks-subnet-pls-api-dynamic-1']);
    expect([pls.fqdns, pls.enableProxyProtocol]).toEqual([['api.contoso.example'], true]);
    expect(pls.loadBalancerFrontendIpConfigurations?.[0]?.id).toContain(
      `/resourceGroups/${NODE_RG}/providers/Microsoft.Network/loadBalancers/member-1-internal/`,
    );
    expect(await statusOf(network.privateLinkServices.get(NODE_RG, 'pls-api'))).toBe(404);
  }, 60_000);

  it('gives a public Service a public IP with its DNS label; deleting Services removes what was made', async () => {
    await core.createNamespacedService({
      namespace: 'default',
      body: loadBalancerService('public', { [ANNOTATIONS.dnsLabelName]: 'fleet-public-app' }),
    });
    const service = await waitForService('public', hasIngress);
    const ip = service?.status?.loadBalancer?.ingress?.[0]?.ip;
    const publicIps = [];
    for await (const pip of network.publicIPAddresses.list(NODE_RG)) publicIps.push(pip);
    expect(publicIps.map((pip) => [pip.ipAddress, pip.dnsSettings?.fqdn, pip.tags?.['k8s-azure-service'], pip.tags?.['k8s-azure-cluster-name']])).toEqual([
      [ip, 'fleet-public-app.eastus.cloudapp.azure.com', 'default/public', 'member-1'],
    ]);
    expect((await network.loadBalancers.get(NODE_RG, 'member-1')).frontendIPConfigurations?.[0]?.publicIPAddress?.id).toBe(publicIps[0]?.id);

    // 'web' and 'api' share the load balancer member-1-internal and are removed at the same time: the stand-in must not
    // lose one of the two read-modify-write updates.
    for (const name of ['public', 'web', 'api']) await core.deleteNamespacedService({ name, namespace: 'default' });
    for (const name of ['public', 'web', 'api']) await waitForService(name, (s) => s === undefined);
    expect(await statusOf(network.privateLinkServices.get(NODE_RG, 'pls-web'))).toBe(404);
    expect(await statusOf(network.privateLinkServices.get(PLS_RG, 'pls-api'))).toBe(404);
    expect(await statusOf(network.loadBalancers.get(NODE_RG, 'member-1-internal'))).toBe(404);
    expect(await statusOf(network.loadBalancers.get(NODE_RG, 'member-1'))).toBe(404);
    const remaining = [];
    for await (const pip of network.publicIPAddresses.list(NODE_RG)) remaining.push(pip);
    expect(remaining).toEqual([]);
    expect(emulator.admin.dumpState().edges).toMatchObject({ addresses: [] });
  }, 60_000);
});
