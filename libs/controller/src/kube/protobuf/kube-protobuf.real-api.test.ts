import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Informer } from '../../informer/informer.js';
import { startHubPlane, type HubPlane } from '../../test-support/hub-plane.js';
import { eventually } from '../../test-support/real-api.js';
import { KubeApiError } from '../kube-api-error.js';
import type { KubeClient } from '../kube-client.js';
import type { KubeObject } from '../kube-object.js';
import type { ResourceType } from '../resource-type.js';
import { decodeKubeList, decodeKubeObject, decodesProtobuf } from './kube-protobuf.js';

// The proof of the schema: the API server's own JSON and its protobuf, of the same objects, decode to equal values.
let plane: HubPlane['plane'];
let client: KubeClient;

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: ['pb'] }));
});

afterAll(async () => {
  await plane?.stop();
});

/** The object at `path` read as JSON and as protobuf, each decoded. */
async function bothWays(path: string): Promise<{ json: unknown; protobuf: unknown }> {
  const [json, protobuf] = await Promise.all([client.get<unknown>(path), client.getProtobuf(path)]);
  return { json, protobuf: decodeKubeObject(protobuf) };
}

async function expectSameBothWays(path: string): Promise<Record<string, unknown>> {
  const { json, protobuf } = await bothWays(path);
  expect(protobuf).toStrictEqual(json);
  return json as Record<string, unknown>;
}

const keyArb = fc.stringMatching(/^[a-zA-Z0-9]([-._a-zA-Z0-9]{0,14}[a-zA-Z0-9])?$/);
const labelValueArb = fc.oneof(fc.constant(''), fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,10}[a-z0-9])?$/));

describe('protobuf decoding of built-in kinds, against the API server’s JSON', () => {
  it('ConfigMaps: any text (empty, multi-byte, long), binary data, labels, annotations, immutable, finalizers', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(
          keyArb.map((k) => `d${k}`),
          fc.string({ unit: 'grapheme', maxLength: 60 }),
          { maxKeys: 5 },
        ),
        fc.dictionary(
          keyArb.map((k) => `b${k}`),
          fc.uint8Array({ maxLength: 40 }),
          { maxKeys: 3 },
        ),
        fc.dictionary(keyArb, labelValueArb, { maxKeys: 3 }),
        fc.dictionary(keyArb, fc.string({ unit: 'grapheme', maxLength: 30 }), { maxKeys: 3 }),
        fc.option(fc.boolean(), { nil: undefined }),
        fc.boolean(),
        async (data, binary, labels, annotations, immutable, finalizer) => {
          const name = `cm-${n++}`;
          const binaryData = Object.fromEntries(Object.entries(binary).map(([k, v]) => [k, Buffer.from(v).toString('base64')]));
          await client.create('/api/v1/namespaces/pb/configmaps', {
            metadata: { name, labels, annotations, ...(finalizer ? { finalizers: ['example.com/keep'] } : {}) },
            data,
            binaryData,
            ...(immutable === undefined ? {} : { immutable }),
          });
          const path = `/api/v1/namespaces/pb/configmaps/${name}`;
          const json = await expectSameBothWays(path);
          // managedFields carry FieldsV1, raw JSON inside the protobuf; a manager that set nothing has none.
          if (Object.keys(data).length > 0) expect((json.metadata as KubeObject['metadata']).managedFields?.length).toBeGreaterThan(0);
          if (finalizer) await client.patch(path, { metadata: { finalizers: null } }, 'merge');
          await client.delete(path);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a ConfigMap of 900 KB, and a list of them, page by page', async () => {
    for (const name of ['big-1', 'big-2', 'big-3']) {
      await client.create('/api/v1/namespaces/pb/configmaps', { metadata: { name }, data: { v: `€${'x'.repeat(900_000)}` } });
    }
    await expectSameBothWays('/api/v1/namespaces/pb/configmaps/big-2');
    const query = { limit: 2 };
    const [json, protobuf] = await Promise.all([
      client.get<{ metadata: { continue?: string }; items: KubeObject[] }>('/api/v1/namespaces/pb/configmaps', query),
      client.getProtobuf('/api/v1/namespaces/pb/configmaps', query),
    ]);
    const decoded = decodeKubeList<KubeObject>(protobuf);
    expect(decoded.items).toStrictEqual(json.items.map((item) => ({ apiVersion: 'v1', kind: 'ConfigMap', ...item })));
    expect(decoded.metadata.continue).toBeTruthy();
  });

  it('Secrets: binary data and type', async () => {
    await client.create('/api/v1/namespaces/pb/secrets', {
      metadata: { name: 'tls' },
      type: 'kubernetes.io/tls',
      data: { 'tls.crt': Buffer.from([0, 1, 2, 255]).toString('base64'), 'tls.key': '' },
    });
    await client.create('/api/v1/namespaces/pb/secrets', { metadata: { name: 'opaque' }, stringData: { token: 'été' } });
    await expectSameBothWays('/api/v1/namespaces/pb/secrets/tls');
    await expectSameBothWays('/api/v1/namespaces/pb/secrets/opaque');
  });

  it('Services of every type: ports by number and by name, pointers set to false, load balancer status', async () => {
    const services = [
      {
        metadata: { name: 'cluster-ip' },
        spec: {
          selector: { app: 'web' },
          ports: [
            { name: 'http', port: 80, targetPort: 'http' },
            { name: 'metrics', port: 9090, targetPort: 9091, protocol: 'UDP' },
          ],
          sessionAffinity: 'ClientIP',
          sessionAffinityConfig: { clientIP: { timeoutSeconds: 600 } },
        },
      },
      { metadata: { name: 'headless' }, spec: { clusterIP: 'None', ports: [{ port: 5432 }], publishNotReadyAddresses: true } },
      {
        metadata: { name: 'node-port' },
        spec: { type: 'NodePort', ports: [{ port: 80, nodePort: 30080, appProtocol: 'http' }], externalTrafficPolicy: 'Local', ipFamilyPolicy: 'SingleStack' },
      },
      {
        metadata: { name: 'internal-lb', annotations: { 'service.beta.kubernetes.io/azure-load-balancer-internal': 'true' } },
        spec: {
          type: 'LoadBalancer',
          ports: [{ port: 443, targetPort: 8443 }],
          allocateLoadBalancerNodePorts: false,
          loadBalancerClass: 'example.com/lb',
          loadBalancerSourceRanges: ['10.0.0.0/8'],
        },
      },
      { metadata: { name: 'external-name' }, spec: { type: 'ExternalName', externalName: 'db.example.com' } },
    ];
    for (const service of services) await client.create('/api/v1/namespaces/pb/services', service);
    await client.patch(
      '/api/v1/namespaces/pb/services/internal-lb/status',
      {
        status: {
          loadBalancer: { ingress: [{ ip: '10.1.2.3', ipMode: 'VIP', ports: [{ port: 443, protocol: 'TCP' }] }] },
          conditions: [{ type: 'Ready', status: 'True', reason: 'Provisioned', message: '', lastTransitionTime: '2026-12-02T01:02:03Z' }],
        },
      },
      'merge',
    );
    for (const { metadata } of services) await expectSameBothWays(`/api/v1/namespaces/pb/services/${metadata.name}`);
  });

  it('Nodes: quantities, conditions with times, addresses, images; Namespaces; EndpointSlices; Leases with MicroTime', async () => {
    await client.create('/api/v1/nodes', {
      metadata: { name: 'node-1', labels: { 'topology.kubernetes.io/zone': 'westeurope-1' } },
      spec: { podCIDR: '10.244.0.0/24', taints: [{ key: 'dedicated', value: 'gateway', effect: 'NoSchedule' }], unschedulable: true },
    });
    await client.patch(
      '/api/v1/nodes/node-1/status',
      {
        status: {
          capacity: { cpu: '4', memory: '16393524Ki', pods: '110', 'ephemeral-storage': '1.5Ti' },
          allocatable: { cpu: '3800m', memory: '14Gi' },
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              lastHeartbeatTime: '2026-12-02T00:00:00Z',
              lastTransitionTime: '2026-12-01T23:00:00Z',
              reason: 'KubeletReady',
              message: 'kubelet is posting ready status',
            },
          ],
          addresses: [
            { type: 'InternalIP', address: '10.0.0.4' },
            { type: 'Hostname', address: 'node-1' },
          ],
          daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
          nodeInfo: {
            machineID: 'm',
            systemUUID: 's',
            bootID: 'b',
            kernelVersion: '6.8',
            osImage: 'Ubuntu',
            containerRuntimeVersion: 'containerd://2.1',
            kubeletVersion: 'v1.36.3',
            kubeProxyVersion: '',
            operatingSystem: 'linux',
            architecture: 'amd64',
          },
          images: [{ names: ['registry.example/web@sha256:abc', 'registry.example/web:1'], sizeBytes: 123456789012 }],
        },
      },
      'merge',
    );
    await expectSameBothWays('/api/v1/nodes/node-1');

    await client.create('/api/v1/namespaces', { metadata: { name: 'labelled', labels: { team: 'shop' }, annotations: { owner: 'ops' } } });
    await expectSameBothWays('/api/v1/namespaces/labelled');

    await client.create('/apis/discovery.k8s.io/v1/namespaces/pb/endpointslices', {
      metadata: { name: 'web-abc', labels: { 'kubernetes.io/service-name': 'cluster-ip' } },
      addressType: 'IPv4',
      endpoints: [
        {
          addresses: ['10.244.0.5'],
          conditions: { ready: false, serving: true, terminating: false },
          nodeName: 'node-1',
          zone: 'westeurope-1',
          hints: { forZones: [{ name: 'westeurope-1' }] },
          targetRef: { kind: 'Pod', namespace: 'pb', name: 'web-1' },
        },
        { addresses: ['10.244.0.6'], conditions: {} },
      ],
      ports: [
        { name: 'http', port: 8080, protocol: 'TCP', appProtocol: 'http' },
        { name: '', port: 0 },
      ],
    });
    await expectSameBothWays('/apis/discovery.k8s.io/v1/namespaces/pb/endpointslices/web-abc');

    await client.create('/apis/coordination.k8s.io/v1/namespaces/pb/leases', {
      metadata: { name: 'leader' },
      spec: {
        holderIdentity: 'pod-1',
        leaseDurationSeconds: 15,
        acquireTime: '2026-12-02T01:00:00.000001Z',
        renewTime: '2026-12-02T01:00:05.123456Z',
        leaseTransitions: 0,
      },
    });
    await expectSameBothWays('/apis/coordination.k8s.io/v1/namespaces/pb/leases/leader');
  });

  it('an error answer in protobuf is a KubeApiError with the Status’s reason and message', async () => {
    const error = await client.getProtobuf('/api/v1/namespaces/pb/configmaps/missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect(error).toMatchObject({ statusCode: 404, reason: 'NotFound', message: expect.stringContaining('configmaps "missing" not found') });
  });

  it('knows which kinds it can decode: built-in ones with a schema, never custom resources', () => {
    expect(decodesProtobuf('v1', 'Service')).toBe(true);
    expect(decodesProtobuf('coordination.k8s.io/v1', 'Lease')).toBe(true);
    expect(decodesProtobuf('v1', 'Pod')).toBe(false);
    expect(decodesProtobuf('gateway.networking.k8s.io/v1', 'Gateway')).toBe(false);
  });
});

describe('an informer on protobuf', () => {
  const services: ResourceType = { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true };

  it('caches exactly what an informer on JSON caches, through the initial stream, updates and deletions', async () => {
    await client.create('/api/v1/namespaces', { metadata: { name: 'watched' } });
    const path = '/api/v1/namespaces/watched/services';
    for (const name of ['a', 'b', 'c']) await client.create(path, { metadata: { name }, spec: { ports: [{ port: 80 }] } });
    const informers = (['json', 'protobuf'] as const).map(
      (encoding) => new Informer<KubeObject>({ client, resource: services, namespace: 'watched', encoding, freezeObjects: false }),
    );
    const seen = informers.map(() => [] as string[]);
    informers.forEach((informer, i) => informer.subscribe((event) => seen[i]!.push(`${event.type} ${event.object.metadata.name}`)));
    for (const informer of informers) informer.start();
    await Promise.all(informers.map((informer) => informer.waitForSync()));
    await client.patch(`${path}/a`, { metadata: { labels: { changed: 'yes' } }, spec: { ports: [{ port: 80, targetPort: 'web' }] } }, 'merge');
    await client.delete(`${path}/b`);
    await client.create(path, { metadata: { name: 'd' }, spec: { type: 'NodePort', ports: [{ port: 81 }] } });
    const settled = (informer: Informer<KubeObject>) =>
      informer.store
        .list()
        .map((s) => `${s.metadata.name}@${s.metadata.resourceVersion}`)
        .sort()
        .join();
    const final = await client.get<{ items: KubeObject[] }>(path);
    const expected = final.items
      .map((s) => `${s.metadata.name}@${s.metadata.resourceVersion}`)
      .sort()
      .join();
    for (const informer of informers)
      expect(
        await eventually(
          () => settled(informer),
          (state) => state === expected,
        ),
      ).toBe(expected);
    await Promise.all(informers.map((informer) => informer.stop()));
    const byName = (informer: Informer<KubeObject>) => Object.fromEntries(informer.store.list().map((s) => [s.metadata.name, s]));
    expect(byName(informers[1]!)).toStrictEqual(byName(informers[0]!));
    expect(seen[1]).toEqual(seen[0]);
  });
});
