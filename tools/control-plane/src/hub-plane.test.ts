import { CoreV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from './control-plane.js';
import { isRunning } from './processes.js';
import { gateway, gatewayClass, httpRoute, internalServiceExport, NS, referenceGrant, serviceImport } from './test-objects.js';

let plane: ControlPlane;
let pids: number[] = [];

const statusOf = (error: unknown): number | undefined => (error as { code?: number }).code;

async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  plane = await startControlPlane({ clusters: ['hub'], crds: { hub: {} } });
  pids = plane.pids();
  const core = plane.cluster('hub').kubeConfig().makeApiClient(CoreV1Api);
  for (const name of [NS, 'team-b']) await core.createNamespace({ body: { metadata: { name } } });
});

afterAll(async () => {
  await plane?.stop();
  // The harness leaves nothing behind: every process it started has exited.
  expect(pids.filter(isRunning)).toEqual([]);
});

describe('hub control plane with the Gateway API and Fleet CRDs', () => {
  it('stores every kind the hub agent reads and serves their status subresources', async () => {
    const custom = plane.cluster('hub').kubeConfig().makeApiClient(CustomObjectsApi);
    await plane.cluster('hub').kubeConfig().makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: 'fleet-member-member-1' } } });
    const create = (group: string, version: string, plural: string, body: { metadata: { name: string; namespace?: string } }) =>
      body.metadata.namespace
        ? custom.createNamespacedCustomObject({ group, version, namespace: body.metadata.namespace, plural, body })
        : custom.createClusterCustomObject({ group, version, plural, body });
    await create('gateway.networking.k8s.io', 'v1', 'gatewayclasses', gatewayClass);
    await create('gateway.networking.k8s.io', 'v1', 'gateways', gateway);
    await create('gateway.networking.k8s.io', 'v1', 'httproutes', httpRoute(10));
    await create('gateway.networking.k8s.io', 'v1beta1', 'referencegrants', referenceGrant);
    await create('networking.fleet.azure.com', 'v1alpha1', 'serviceimports', serviceImport);
    await create('networking.fleet.azure.com', 'v1alpha1', 'internalserviceexports', internalServiceExport('member-1', 8080));

    const route = (await custom.getNamespacedCustomObject({
      group: 'gateway.networking.k8s.io', version: 'v1', namespace: NS, plural: 'httproutes', name: 'store',
    })) as ReturnType<typeof httpRoute>;
    expect(route.spec.rules[0]?.backendRefs[0]).toMatchObject({ kind: 'ServiceImport', name: 'store', weight: 10 });

    const ise = (await custom.getNamespacedCustomObject({
      group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'fleet-member-member-1', plural: 'internalserviceexports', name: 'team-b-store',
    })) as ReturnType<typeof internalServiceExport>;
    // The extension fields survive the API server's pruning.
    expect(ise.spec.privateLinkService.alias).toContain('privatelinkservice');
    expect(ise.spec.privateEndpointConnections[0]?.description).toBe('fleet-gw-req-1');

    // The hub writes ServiceImport status and the Private Link request list through the status subresource.
    await custom.patchNamespacedCustomObjectStatus(
      {
        group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'team-b', plural: 'serviceimports', name: 'store',
        body: { status: { type: 'ClusterSetIP', ports: [{ port: 8080, protocol: 'TCP' }], clusters: [{ cluster: 'member-1' }] } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await custom.patchNamespacedCustomObjectStatus(
      {
        group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'fleet-member-member-1', plural: 'internalserviceexports', name: 'team-b-store',
        body: {
          apiVersion: 'networking.fleet.azure.com/v1alpha1', kind: 'InternalServiceExport',
          metadata: { name: 'team-b-store', namespace: 'fleet-member-member-1' },
          status: { privateLinkRequests: [{ gateway: `${NS}/web`, requestMessage: 'fleet-gw-req-1' }] },
        },
        fieldManager: 'hub-gateway',
        force: true,
      },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
    const imported = (await custom.getNamespacedCustomObject({
      group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'team-b', plural: 'serviceimports', name: 'store',
    })) as { status: { clusters: { cluster: string }[]; ports: { port: number }[] } };
    expect(imported.status.clusters).toEqual([{ cluster: 'member-1' }]);
    const iseAfter = (await custom.getNamespacedCustomObject({
      group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'fleet-member-member-1', plural: 'internalserviceexports', name: 'team-b-store',
    })) as { spec: { privateLinkService: unknown }; status: { privateLinkRequests: unknown[] } };
    expect(iseAfter.status.privateLinkRequests).toEqual([{ gateway: `${NS}/web`, requestMessage: 'fleet-gw-req-1' }]);
    expect(iseAfter.spec.privateLinkService).toEqual(ise.spec.privateLinkService);

    // The member re-applies its spec under its own field manager: the hub's status entries stay.
    await custom.patchNamespacedCustomObject(
      {
        group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'fleet-member-member-1', plural: 'internalserviceexports', name: 'team-b-store',
        body: { ...internalServiceExport('member-1', 8080), spec: { ...internalServiceExport('member-1', 8080).spec, weight: 5 } },
        fieldManager: 'member-discovery',
        force: true,
      },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
    const iseFinal = (await custom.getNamespacedCustomObject({
      group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'fleet-member-member-1', plural: 'internalserviceexports', name: 'team-b-store',
    })) as { spec: { weight: number }; status: { privateLinkRequests: unknown[] } };
    expect(iseFinal.spec.weight).toBe(5);
    expect(iseFinal.status.privateLinkRequests).toEqual([{ gateway: `${NS}/web`, requestMessage: 'fleet-gw-req-1' }]);
  });

  it('rejects objects that break the CRD schemas', async () => {
    const custom = plane.cluster('hub').kubeConfig().makeApiClient(CustomObjectsApi);
    const badRoute = { ...httpRoute(1_000_001), metadata: { name: 'too-heavy', namespace: NS } };
    const routeError = await custom
      .createNamespacedCustomObject({ group: 'gateway.networking.k8s.io', version: 'v1', namespace: NS, plural: 'httproutes', body: badRoute })
      .then(() => undefined, (e: unknown) => e);
    expect(statusOf(routeError)).toBe(422);
    expect(String((routeError as { body?: string }).body)).toContain('weight');

    const badExport = { ...internalServiceExport('member-1', 70_000), metadata: { name: 'bad-port', namespace: 'fleet-member-member-1' } };
    const exportError = await custom
      .createNamespacedCustomObject({
        group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'fleet-member-member-1', plural: 'internalserviceexports', body: badExport,
      })
      .then(() => undefined, (e: unknown) => e);
    expect(statusOf(exportError)).toBe(422);
    expect(String((exportError as { body?: string }).body)).toContain('spec.ports[0].port');
  });

  it("gives a member's hub token its own fleet-member namespace and nothing else", async () => {
    const kc1 = new KubeConfig();
    kc1.loadFromFile(await plane.memberHubKubeconfig('member-2'));
    await plane.memberHubKubeconfig('member-3');
    const asMember2 = kc1.makeApiClient(CustomObjectsApi);
    const body = (ns: string) => ({ ...internalServiceExport('member-2', 8080), metadata: { name: 'team-b-store', namespace: ns } });
    const created = (await asMember2.createNamespacedCustomObject({
      group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'fleet-member-member-2', plural: 'internalserviceexports', body: body('fleet-member-member-2'),
    })) as { metadata: { uid: string } };
    expect(created.metadata.uid).toMatch(/[0-9a-f-]{36}/);
    const refused = await asMember2
      .createNamespacedCustomObject({
        group: 'networking.fleet.azure.com', version: 'v1alpha1', namespace: 'fleet-member-member-3', plural: 'internalserviceexports', body: body('fleet-member-member-3'),
      })
      .then(() => undefined, (e: unknown) => e);
    expect(statusOf(refused)).toBe(403);
    const listAll = await asMember2
      .listCustomObjectForAllNamespaces({ group: 'networking.fleet.azure.com', version: 'v1alpha1', plural: 'internalserviceexports' })
      .then(() => undefined, (e: unknown) => e);
    expect(statusOf(listAll)).toBe(403);
  });

  it('finishes deleting a namespace and garbage-collects dependents with their owner', async () => {
    const core = plane.cluster('hub').kubeConfig().makeApiClient(CoreV1Api);
    await core.createNamespace({ body: { metadata: { name: 'doomed' } } });
    const owner = await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'owner' } } });
    await core.createNamespacedConfigMap({
      namespace: NS,
      body: {
        metadata: {
          name: 'dependent',
          ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata?.uid ?? '' }],
        },
      },
    });
    await core.createNamespacedConfigMap({ namespace: 'doomed', body: { metadata: { name: 'content' } } });
    await core.deleteNamespace({ name: 'doomed' });
    await core.deleteNamespacedConfigMap({ name: 'owner', namespace: NS });

    const namespaceGone = await eventually(
      () => core.readNamespace({ name: 'doomed' }).then(() => false, (e: unknown) => statusOf(e) === 404),
      (gone) => gone,
    );
    expect(namespaceGone).toBe(true);
    const dependentGone = await eventually(
      () => core.readNamespacedConfigMap({ name: 'dependent', namespace: NS }).then(() => false, (e: unknown) => statusOf(e) === 404),
      (gone) => gone,
    );
    expect(dependentGone).toBe(true);
  });

  it('keeps its data and its clients across an API server restart on the same port', async () => {
    const hub = plane.cluster('hub');
    const kc = hub.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'survivor' }, data: { k: 'v' } } });
    const server = hub.server;
    await hub.restartApiServer();
    expect(hub.server).toBe(server);
    // The same client object, built from the kubeconfig written before the restart.
    const read = await core.readNamespacedConfigMap({ name: 'survivor', namespace: NS });
    expect(read.data).toEqual({ k: 'v' });
  });

  it('keeps GatewayClass status.supportedFeatures only once the experimental GatewayClass CRD is installed', async () => {
    const custom = plane.cluster('hub').kubeConfig().makeApiClient(CustomObjectsApi);
    const writeFeatures = async () => {
      await custom.patchClusterCustomObjectStatus(
        {
          group: 'gateway.networking.k8s.io', version: 'v1', plural: 'gatewayclasses', name: 'azure-fleet-afd',
          body: { status: { supportedFeatures: [{ name: 'HTTPRoute' }] } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const read = (await custom.getClusterCustomObject({
        group: 'gateway.networking.k8s.io', version: 'v1', plural: 'gatewayclasses', name: 'azure-fleet-afd',
      })) as { status?: { supportedFeatures?: unknown } };
      return read.status?.supportedFeatures;
    };
    // The standard v1.2.1 schema prunes the field.
    expect(await writeFeatures()).toBeUndefined();
    await plane.installCrds('hub', { experimentalGatewayClass: true });
    expect(await writeFeatures()).toEqual([{ name: 'HTTPRoute' }]);
  });
});
