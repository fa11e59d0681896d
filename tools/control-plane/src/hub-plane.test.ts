import { ApiextensionsV1Api, CoreV1Api, CustomObjectsApi, KubeConfig, PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlPlane, type ControlPlane } from './control-plane.js';
import { isRunning } from './processes.js';
import { gateway, gatewayClass, httpRoute, internalServiceExport, NS, referenceGrant, serviceImport } from './test-objects.js';

let plane: ControlPlane;
let pids: number[] = [];

const statusOf = (error: unknown): number | undefined => (error as { code?: number }).code;
/** The HTTP status a request ends with: 200 when it succeeds. */
const answer = (request: Promise<unknown>): Promise<number | undefined> => request.then(() => 200, statusOf);
const FLEET = { group: 'networking.fleet.azure.com', version: 'v1alpha1' };

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
    await plane
      .cluster('hub')
      .kubeConfig()
      .makeApiClient(CoreV1Api)
      .createNamespace({ body: { metadata: { name: 'fleet-member-member-1' } } });
    type Manifest = { apiVersion: string; metadata: { name: string; namespace?: string }; spec?: object };
    const objects: [plural: string, body: Manifest][] = [
      ['gatewayclasses', gatewayClass],
      ['gateways', gateway],
      ['httproutes', httpRoute(10)],
      ['referencegrants', referenceGrant],
      ['serviceimports', serviceImport],
      ['internalserviceexports', internalServiceExport('member-1', 8080)],
    ];
    for (const [plural, body] of objects) {
      const [group = '', version = ''] = body.apiVersion.split('/');
      const { name, namespace } = body.metadata;
      if (namespace) await custom.createNamespacedCustomObject({ group, version, namespace, plural, body });
      else await custom.createClusterCustomObject({ group, version, plural, body });
      const read = (await (namespace
        ? custom.getNamespacedCustomObject({ group, version, namespace, plural, name })
        : custom.getClusterCustomObject({ group, version, plural, name }))) as Manifest;
      expect(read.metadata, plural).toMatchObject(body.metadata);
      expect(read.spec ?? {}, plural).toMatchObject(body.spec ?? {});
    }

    const route = (await custom.getNamespacedCustomObject({
      group: 'gateway.networking.k8s.io',
      version: 'v1',
      namespace: NS,
      plural: 'httproutes',
      name: 'store',
    })) as ReturnType<typeof httpRoute>;
    expect(route.spec.rules[0]?.backendRefs[0]).toMatchObject({ kind: 'ServiceImport', name: 'store', weight: 10 });

    const ise = (await custom.getNamespacedCustomObject({
      group: 'networking.fleet.azure.com',
      version: 'v1alpha1',
      namespace: 'fleet-member-member-1',
      plural: 'internalserviceexports',
      name: 'team-b-store',
    })) as ReturnType<typeof internalServiceExport>;
    // The extension fields survive the API server's pruning.
    expect(ise.spec.privateLinkService.alias).toContain('privatelinkservice');
    expect(ise.spec.privateEndpointConnections[0]?.description).toBe('fleet-gw-req-1');

    // The hub writes ServiceImport status and the Private Link request list through the status subresource.
    await custom.patchNamespacedCustomObjectStatus(
      {
        group: 'networking.fleet.azure.com',
        version: 'v1alpha1',
        namespace: 'team-b',
        plural: 'serviceimports',
        name: 'store',
        body: { status: { type: 'ClusterSetIP', ports: [{ port: 8080, protocol: 'TCP' }], clusters: [{ cluster: 'member-1' }] } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    await custom.patchNamespacedCustomObjectStatus(
      {
        group: 'networking.fleet.azure.com',
        version: 'v1alpha1',
        namespace: 'fleet-member-member-1',
        plural: 'internalserviceexports',
        name: 'team-b-store',
        body: {
          apiVersion: 'networking.fleet.azure.com/v1alpha1',
          kind: 'InternalServiceExport',
          metadata: { name: 'team-b-store', namespace: 'fleet-member-member-1' },
          status: { privateLinkRequests: [{ gateway: `${NS}/web`, requestMessage: 'fleet-gw-req-1' }] },
        },
        fieldManager: 'hub-gateway',
        force: true,
      },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
    const imported = (await custom.getNamespacedCustomObject({
      group: 'networking.fleet.azure.com',
      version: 'v1alpha1',
      namespace: 'team-b',
      plural: 'serviceimports',
      name: 'store',
    })) as { status: { clusters: { cluster: string }[]; ports: { port: number }[] } };
    expect(imported.status.clusters).toEqual([{ cluster: 'member-1' }]);
    const iseAfter = (await custom.getNamespacedCustomObject({
      group: 'networking.fleet.azure.com',
      version: 'v1alpha1',
      namespace: 'fleet-member-member-1',
      plural: 'internalserviceexports',
      name: 'team-b-store',
    })) as { spec: { privateLinkService: unknown }; status: { privateLinkRequests: unknown[] } };
    expect(iseAfter.status.privateLinkRequests).toEqual([{ gateway: `${NS}/web`, requestMessage: 'fleet-gw-req-1' }]);
    expect(iseAfter.spec.privateLinkService).toEqual(ise.spec.privateLinkService);

    // The member re-applies its spec under its own field manager: the hub's status entries stay.
    await custom.patchNamespacedCustomObject(
      {
        group: 'networking.fleet.azure.com',
        version: 'v1alpha1',
        namespace: 'fleet-member-member-1',
        plural: 'internalserviceexports',
        name: 'team-b-store',
        body: { ...internalServiceExport('member-1', 8080), spec: { ...internalServiceExport('member-1', 8080).spec, weight: 5 } },
        fieldManager: 'member-discovery',
        force: true,
      },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
    const iseFinal = (await custom.getNamespacedCustomObject({
      group: 'networking.fleet.azure.com',
      version: 'v1alpha1',
      namespace: 'fleet-member-member-1',
      plural: 'internalserviceexports',
      name: 'team-b-store',
    })) as { spec: { weight: number }; status: { privateLinkRequests: unknown[] } };
    expect(iseFinal.spec.weight).toBe(5);
    expect(iseFinal.status.privateLinkRequests).toEqual([{ gateway: `${NS}/web`, requestMessage: 'fleet-gw-req-1' }]);
  });

  it('rejects objects that break the CRD schemas', async () => {
    const custom = plane.cluster('hub').kubeConfig().makeApiClient(CustomObjectsApi);
    const badRoute = { ...httpRoute(1_000_001), metadata: { name: 'too-heavy', namespace: NS } };
    const routeError = await custom
      .createNamespacedCustomObject({ group: 'gateway.networking.k8s.io', version: 'v1', namespace: NS, plural: 'httproutes', body: badRoute })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(statusOf(routeError)).toBe(422);
    expect(String((routeError as { body?: string }).body)).toContain('weight');

    const badExport = { ...internalServiceExport('member-1', 70_000), metadata: { name: 'bad-port', namespace: 'fleet-member-member-1' } };
    const exportError = await custom
      .createNamespacedCustomObject({
        group: 'networking.fleet.azure.com',
        version: 'v1alpha1',
        namespace: 'fleet-member-member-1',
        plural: 'internalserviceexports',
        body: badExport,
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(statusOf(exportError)).toBe(422);
    expect(String((exportError as { body?: string }).body)).toContain('spec.ports[0].port');

    // As upstream, a port's protocol defaults to TCP.
    const noProtocol = internalServiceExport('member-1', 9090);
    const defaulted = (await custom.createNamespacedCustomObject({
      ...FLEET,
      namespace: 'fleet-member-member-1',
      plural: 'internalserviceexports',
      body: { ...noProtocol, metadata: { name: 'no-protocol', namespace: 'fleet-member-member-1' }, spec: { ...noProtocol.spec, ports: [{ port: 9090 }] } },
    })) as { spec: { ports: { protocol?: string }[] } };
    expect(defaulted.spec.ports[0]?.protocol).toBe('TCP');
  });

  it('merges the keyed Private Link request list entry by entry between field managers (server-side apply)', async () => {
    const custom = plane.cluster('hub').kubeConfig().makeApiClient(CustomObjectsApi);
    const target = { ...FLEET, namespace: 'fleet-member-member-1', plural: 'internalserviceexports', name: 'keyed' };
    const applied = { ...internalServiceExport('member-1', 8080), metadata: { name: 'keyed', namespace: 'fleet-member-member-1' } };
    await custom.createNamespacedCustomObject({ ...target, body: applied });
    const applyRequests = (fieldManager: string, requests: { gateway: string; requestMessage: string }[]) =>
      custom.patchNamespacedCustomObjectStatus(
        {
          ...target,
          body: { apiVersion: applied.apiVersion, kind: applied.kind, metadata: applied.metadata, status: { privateLinkRequests: requests } },
          fieldManager,
          force: true,
        },
        setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
      );
    const requests = async () =>
      ((await custom.getNamespacedCustomObject(target)) as { status?: { privateLinkRequests?: { gateway: string }[] } }).status?.privateLinkRequests?.map(
        (r) => r.gateway,
      );
    await applyRequests('gateway-web', [{ gateway: `${NS}/web`, requestMessage: 'req-web' }]);
    await applyRequests('gateway-api', [{ gateway: `${NS}/api`, requestMessage: 'req-api' }]);
    expect(await requests()).toEqual([`${NS}/web`, `${NS}/api`]);
    // A writer that withdraws its entry removes only its own.
    await applyRequests('gateway-web', []);
    expect(await requests()).toEqual([`${NS}/api`]);
  });

  it('allocates Service cluster IPs from the /16 service CIDR', async () => {
    const core = plane.cluster('hub').kubeConfig().makeApiClient(CoreV1Api);
    expect((await core.readNamespacedService({ name: 'kubernetes', namespace: 'default' })).spec?.clusterIP).toBe('10.96.0.1');
    // Outside 10.96.0.0/24 but inside the /16.
    const service = await core.createNamespacedService({
      namespace: NS,
      body: { metadata: { name: 'wide-cidr' }, spec: { clusterIP: '10.96.255.254', ports: [{ port: 80 }] } },
    });
    expect(service.spec?.clusterIP).toBe('10.96.255.254');
  });

  it("gives a member's hub token its own fleet-member namespace and nothing else", async () => {
    const kc = new KubeConfig();
    kc.loadFromFile(await plane.memberHubKubeconfig('member-2'));
    await plane.memberHubKubeconfig('member-3');
    const custom = kc.makeApiClient(CustomObjectsApi);
    const core = kc.makeApiClient(CoreV1Api);
    const exports = (namespace: string) => ({ ...FLEET, namespace, plural: 'internalserviceexports' });
    const body = (namespace: string) => ({ ...internalServiceExport('member-2', 8080), metadata: { name: 'team-b-store', namespace } });
    const created = (await custom.createNamespacedCustomObject({ ...exports('fleet-member-member-2'), body: body('fleet-member-member-2') })) as {
      metadata: { uid: string };
    };
    expect(created.metadata.uid).toMatch(/[0-9a-f-]{36}/);
    expect(await answer(custom.listNamespacedCustomObject(exports('fleet-member-member-2')))).toBe(200);
    expect({
      // Another member's namespace: neither write nor read.
      createInOther: await answer(custom.createNamespacedCustomObject({ ...exports('fleet-member-member-3'), body: body('fleet-member-member-3') })),
      listInOther: await answer(custom.listNamespacedCustomObject(exports('fleet-member-member-3'))),
      listAllNamespaces: await answer(custom.listCustomObjectForAllNamespaces({ ...FLEET, resourcePlural: 'internalserviceexports' })),
      // Cluster-scoped objects.
      listNamespaces: await answer(core.listNamespace()),
      readOwnNamespace: await answer(core.readNamespace({ name: 'fleet-member-member-2' })),
      listCrds: await answer(kc.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition()),
      // In its own namespace, only what its Role grants: no Secrets, and the hub's status stays the hub's.
      listOwnSecrets: await answer(core.listNamespacedSecret({ namespace: 'fleet-member-member-2' })),
      writeOwnStatus: await answer(
        custom.patchNamespacedCustomObjectStatus(
          { ...exports('fleet-member-member-2'), name: 'team-b-store', body: { status: { privateLinkRequests: [] } } },
          setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
        ),
      ),
    }).toEqual({
      createInOther: 403,
      listInOther: 403,
      listAllNamespaces: 403,
      listNamespaces: 403,
      readOwnNamespace: 403,
      listCrds: 403,
      listOwnSecrets: 403,
      writeOwnStatus: 403,
    });
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
      () =>
        core.readNamespace({ name: 'doomed' }).then(
          () => false,
          (e: unknown) => statusOf(e) === 404,
        ),
      (gone) => gone,
    );
    expect(namespaceGone).toBe(true);
    const dependentGone = await eventually(
      () =>
        core.readNamespacedConfigMap({ name: 'dependent', namespace: NS }).then(
          () => false,
          (e: unknown) => statusOf(e) === 404,
        ),
      (gone) => gone,
    );
    expect(dependentGone).toBe(true);
  });

  it('keeps its data and its clients across an API server restart on the same port', async () => {
    const hub = plane.cluster('hub');
    const kc = hub.kubeConfig();
    const core = kc.makeApiClient(CoreV1Api);
    await core.createNamespacedConfigMap({ namespace: NS, body: { metadata: { name: 'survivor' }, data: { k: 'v' } } });
    const member = new KubeConfig();
    member.loadFromFile(await plane.memberHubKubeconfig('member-4'));
    const server = hub.server;
    await hub.restartApiServer();
    expect(hub.server).toBe(server);
    // The same client objects, built from the kubeconfigs written before the restart (admin certificate, member token).
    const read = await core.readNamespacedConfigMap({ name: 'survivor', namespace: NS });
    expect(read.data).toEqual({ k: 'v' });
    expect(
      await answer(
        member.makeApiClient(CustomObjectsApi).listNamespacedCustomObject({ ...FLEET, namespace: 'fleet-member-member-4', plural: 'internalserviceexports' }),
      ),
    ).toBe(200);
  });

  it('keeps GatewayClass status.supportedFeatures only once the experimental GatewayClass CRD is installed', async () => {
    const custom = plane.cluster('hub').kubeConfig().makeApiClient(CustomObjectsApi);
    const writeFeatures = async () => {
      await custom.patchClusterCustomObjectStatus(
        {
          group: 'gateway.networking.k8s.io',
          version: 'v1',
          plural: 'gatewayclasses',
          name: 'azure-fleet-afd',
          body: { status: { supportedFeatures: [{ name: 'HTTPRoute' }] } },
        },
        setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
      );
      const read = (await custom.getClusterCustomObject({
        group: 'gateway.networking.k8s.io',
        version: 'v1',
        plural: 'gatewayclasses',
        name: 'azure-fleet-afd',
      })) as { status?: { supportedFeatures?: unknown } };
      return read.status?.supportedFeatures;
    };
    // The standard v1.2.1 schema prunes the field.
    expect(await writeFeatures()).toBeUndefined();
    await plane.installCrds('hub', { experimentalGatewayClass: true });
    expect(await writeFeatures()).toEqual([{ name: 'HTTPRoute' }]);
  });
});
