import { EventRecorder, KubeClient, Manager, collectionPath, createLogger, isNotFound, objectPath, type ManagedFieldsEntry } from '@fleet-gateway/controller';
import { captureLogLines, eventually, startHubPlane, type HubPlane } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTERNAL_SERVICE_EXPORT_FINALIZER } from './fleet-names.js';
import { internalServiceExports, serviceImports, type CachedInternalServiceExport as Export, type CachedServiceImport as Import } from './fleet-resources.js';
import { FLEET_HUB_FIELD_MANAGER, registerFleetHubControllers, type FleetHubControllers } from './register-fleet-hub-controllers.js';
import type { ServicePort } from './service-ports.js';
import { exportOf, httpPort } from './test-support/exports.js';

const members = ['member-1', 'member-2', 'member-3'];
const ns = 'shop';
let plane: HubPlane['plane'];
let client: KubeClient;
let manager: Manager;
let fleet: FleetHubControllers;
const logs = captureLogLines();

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: [ns, ...members.map((m) => `fleet-member-${m}`)] }));
  await plane.installCrds('hub', { gatewayApi: false, fleet: true });
  const logger = createLogger({ level: 'debug', stream: logs.stream, fields: { component: 'hub-gateway' } });
  manager = new Manager({ logger });
  const events = manager.addEventRecorder(
    new EventRecorder({ client, reportingController: 'networking.fleet.azure.com/hub-gateway', reportingInstance: 'test', logger }),
  );
  fleet = registerFleetHubControllers({ manager, client, events, logger, resyncPeriodMs: 300 });
  await manager.start();
});

afterAll(async () => {
  await manager?.shutdown('test over');
  await plane?.stop();
});

const exportPath = (cluster: string, service: string) => objectPath(internalServiceExports, `${ns}-${service}`, `fleet-member-${cluster}`);
const importPath = (service: string) => objectPath(serviceImports, service, ns);
const readExport = (cluster: string, service: string) => client.get<Export>(exportPath(cluster, service));
const readImport = (service: string) =>
  client.get<Import>(importPath(service)).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
const memberManager = (cluster: string) => `member-discovery-${cluster}`;

/** What a member agent does: server-side apply of the export's spec under its own field manager. */
async function publish(cluster: string, service: string, ports: readonly ServicePort[] = [httpPort], weight = 1): Promise<void> {
  const { apiVersion, kind, metadata, spec } = exportOf({ cluster, namespace: ns, service, ports });
  const body = { apiVersion, kind, metadata: { name: metadata.name, namespace: metadata.namespace }, spec: { ...spec, weight } };
  await client.patch(exportPath(cluster, service), body, 'apply', { fieldManager: memberManager(cluster), force: true });
}
const unpublish = (cluster: string, service: string) => client.delete(exportPath(cluster, service));

const conflictOf = (ise: Export | undefined) => ise?.status?.conditions?.find((c) => c.type === 'Conflict');
const clustersOf = (si: Import | undefined) => si?.status?.clusters?.map((c) => c.cluster) ?? [];
async function exportGone(cluster: string, service: string): Promise<boolean> {
  return readExport(cluster, service).then(
    () => false,
    (error: unknown) => isNotFound(error),
  );
}
async function eventsAbout(name: string, namespace = ns): Promise<{ reason: string; note: string; type: string }[]> {
  const list = await client.get<{ items: { reason: string; note: string; type: string; regarding: { name: string } }[] }>(
    collectionPath({ group: 'events.k8s.io', version: 'v1', kind: 'Event', plural: 'events', namespaced: true }, namespace),
  );
  return list.items.filter((e) => e.regarding.name === name);
}

describe('the hub’s Fleet side on a real API server', () => {
  it('creates the ServiceImport from the first export, holds the export with the finalizer and says it has no conflict', async () => {
    await publish('member-1', 'web');
    const si = await eventually(
      () => readImport('web'),
      (s) => clustersOf(s).length === 1,
    );
    expect(si?.status).toEqual({ ports: [httpPort], clusters: [{ cluster: 'member-1' }], type: 'ClusterSetIP' });
    expect(si?.metadata.annotations).toBeUndefined();
    const ise = await eventually(
      () => readExport('member-1', 'web'),
      (e) => conflictOf(e) !== undefined,
    );
    expect(ise.metadata.finalizers).toEqual([INTERNAL_SERVICE_EXPORT_FINALIZER]);
    expect(conflictOf(ise)).toMatchObject({
      status: 'False',
      reason: 'NoConflictFound',
      message: 'service shop/web is exported without conflict',
      observedGeneration: ise.metadata.generation,
    });
    // The member owns spec and the hub owns status, each under its own field manager.
    const owners = ((ise.metadata.managedFields ?? []) as ManagedFieldsEntry[]).map((f) => `${f.manager}:${f.subresource ?? ''}`);
    expect(owners).toContain(`${memberManager('member-1')}:`);
    expect(owners).toContain(`${FLEET_HUB_FIELD_MANAGER}:status`);
    const resolved = await eventually(
      () => eventsAbout('web'),
      (list) => list.some((e) => e.reason === 'SuccessfulUpdateStatus'),
    );
    expect(resolved.find((e) => e.reason === 'SuccessfulUpdateStatus')?.note).toContain('ports http:80/TCP->8080, clusters member-1');
    // One status write each, none repeated from a cache that had not caught up with the finalizer or the create.
    expect(fleet.statusWriter.writes).toBe(2);

    // The member re-applying its spec (a new weight) keeps the hub's finalizer and condition.
    await publish('member-1', 'web', [httpPort], 5);
    const reapplied = await eventually(
      () => readExport('member-1', 'web'),
      (e) => e.spec?.weight === 5,
    );
    expect(reapplied.metadata.finalizers).toEqual([INTERNAL_SERVICE_EXPORT_FINALIZER]);
    expect(conflictOf(reapplied)?.status).toBe('False');
  });

  it('marks a later export with another protocol conflicted and leaves it out; it joins once it matches', async () => {
    await publish('member-2', 'web', [{ ...httpPort, protocol: 'UDP' }]);
    const conflicted = await eventually(
      () => readExport('member-2', 'web'),
      (e) => conflictOf(e) !== undefined,
    );
    expect(conflictOf(conflicted)).toMatchObject({
      status: 'True',
      reason: 'ConflictFound',
      message: 'service shop/web is in conflict with other exported services',
    });
    expect(clustersOf(await readImport('web'))).toEqual(['member-1']);
    const warned = await eventually(
      () => eventsAbout('shop-web', 'fleet-member-member-2'),
      (l) => l.length > 0,
    );
    expect(warned[0]).toMatchObject({ type: 'Warning', reason: 'ServiceExportConflict' });
    expect(warned[0]?.note).toBe("ports http:80/UDP->8080 differ from ServiceImport shop/web's ports http:80/TCP->8080");

    await publish('member-3', 'web');
    await eventually(
      () => readImport('web'),
      (s) => clustersOf(s).length === 2,
    );
    expect(clustersOf(await readImport('web'))).toEqual(['member-1', 'member-3']);

    await publish('member-2', 'web');
    const joined = await eventually(
      () => readExport('member-2', 'web'),
      (e) => conflictOf(e)?.status === 'False',
    );
    expect(conflictOf(joined)?.reason).toBe('NoConflictFound');
    // Appended after the clusters already listed, as upstream's internalserviceexport controller appends.
    expect(clustersOf(await readImport('web'))).toEqual(['member-1', 'member-3', 'member-2']);
  });

  it('re-resolves from the oldest export when the listed one changes its port, and from the next when it goes', async () => {
    const port = (n: number): ServicePort[] => [{ port: n, protocol: 'TCP' }];
    await publish('member-1', 'pay', port(80));
    await eventually(
      () => readImport('pay'),
      (s) => clustersOf(s).length === 1,
    );
    await publish('member-2', 'pay', port(8080));
    await eventually(
      () => readExport('member-2', 'pay'),
      (e) => conflictOf(e)?.status === 'True',
    );

    await publish('member-1', 'pay', port(9090));
    const changed = await eventually(
      () => readImport('pay'),
      (s) => s?.status?.ports?.[0]?.port === 9090,
    );
    expect(changed?.status).toEqual({ ports: port(9090), clusters: [{ cluster: 'member-1' }], type: 'ClusterSetIP' });
    expect(conflictOf(await readExport('member-2', 'pay'))?.status).toBe('True');

    await unpublish('member-1', 'pay');
    const next = await eventually(
      () => readImport('pay'),
      (s) => clustersOf(s)[0] === 'member-2',
    );
    expect(next?.status).toEqual({ ports: port(8080), clusters: [{ cluster: 'member-2' }], type: 'ClusterSetIP' });
    const member2 = await eventually(
      () => readExport('member-2', 'pay'),
      (e) => conflictOf(e)?.status === 'False',
    );
    expect(conflictOf(member2)?.reason).toBe('NoConflictFound');
    await unpublish('member-2', 'pay');
    await eventually(
      () => readImport('pay'),
      (s) => s === undefined,
    );
  });

  it('makes zero writes in a steady state over several resyncs', async () => {
    const versions = async () => [
      (await readImport('web'))?.metadata.resourceVersion,
      ...(await Promise.all(members.map(async (m) => (await readExport(m, 'web')).metadata.resourceVersion))),
    ];
    const before = await versions();
    const writes = fleet.statusWriter.writes;
    const inSync = () => logs.lines.filter((l) => l.message === 'in sync; nothing written' && l.name === 'web').length;
    const seen = inSync();
    await eventually(inSync, (n) => n >= seen + 4);
    expect(await versions()).toEqual(before);
    expect(fleet.statusWriter.writes).toBe(writes);
  });

  it('releases a deleted export once its cluster is out, and deletes the ServiceImport with the last one', async () => {
    await unpublish('member-2', 'web');
    await eventually(() => exportGone('member-2', 'web'), Boolean);
    expect(await exportGone('member-2', 'web')).toBe(true);
    expect(clustersOf(await readImport('web'))).toEqual(['member-1', 'member-3']);

    await unpublish('member-1', 'web');
    await unpublish('member-3', 'web');
    const gone = await eventually(
      () => readImport('web'),
      (s) => s === undefined,
    );
    expect(gone).toBeUndefined();
    // The reconcile deletes the ServiceImport before it releases the last export, so the release may lag the read.
    const released = async () => (await exportGone('member-1', 'web')) && (await exportGone('member-3', 'web'));
    expect(await eventually(released, Boolean)).toBe(true);
    const deleted = await eventually(
      () => eventsAbout('web'),
      (l) => l.some((e) => e.reason === 'NoExportedService'),
    );
    expect(deleted.find((e) => e.reason === 'NoExportedService')?.note).toBe('No exported service and deleting serviceImport web');
  });

  it('keeps a ServiceImport that carries afd- annotations, status cleared, and fills it again on re-export', async () => {
    await publish('member-1', 'api');
    await eventually(
      () => readImport('api'),
      (s) => clustersOf(s).length === 1,
    );
    const annotations = { 'networking.fleet.azure.com/afd-origin-protocol': 'https' };
    await client.patch(importPath('api'), { metadata: { annotations } }, 'merge');

    await unpublish('member-1', 'api');
    await eventually(() => exportGone('member-1', 'api'), Boolean);
    const kept = await eventually(
      () => readImport('api'),
      (s) => s?.status?.ports === undefined,
    );
    expect(kept?.metadata.annotations).toEqual(annotations);
    expect(kept?.status ?? {}).toEqual({});

    await publish('member-2', 'api', [{ port: 443, protocol: 'TCP' }]);
    const refilled = await eventually(
      () => readImport('api'),
      (s) => clustersOf(s).length === 1,
    );
    expect(refilled?.status).toEqual({ ports: [{ port: 443, protocol: 'TCP' }], clusters: [{ cluster: 'member-2' }], type: 'ClusterSetIP' });
    expect(refilled?.metadata.annotations).toEqual(annotations);
  });

  it('recreates a ServiceImport deleted while exported, and deletes one created with nothing exported', async () => {
    await publish('member-1', 'cart');
    const first = await eventually(
      () => readImport('cart'),
      (s) => clustersOf(s).length === 1,
    );
    await client.delete(importPath('cart'));
    const again = await eventually(
      () => readImport('cart'),
      (s) => s !== undefined && s.metadata.uid !== first?.metadata.uid && clustersOf(s).length === 1,
    );
    expect(again?.status).toEqual({ ports: [httpPort], clusters: [{ cluster: 'member-1' }], type: 'ClusterSetIP' });

    await client.create(collectionPath(serviceImports, ns), {
      apiVersion: 'networking.fleet.azure.com/v1alpha1',
      kind: 'ServiceImport',
      metadata: { name: 'orphan' },
    });
    expect(
      await eventually(
        () => readImport('orphan'),
        (s) => s === undefined,
      ),
    ).toBeUndefined();
  });

  it('recovers after the hub API server restarts: later changes are acted on, unchanged objects are not rewritten', async () => {
    const apiBefore = await readImport('api');
    const member2Before = await readExport('member-2', 'api');
    await plane.cluster('hub').restartApiServer();
    await publish('member-3', 'api', [{ port: 443, protocol: 'TCP' }]);
    const joined = await eventually(
      () => readImport('api'),
      (s) => clustersOf(s).length === 2,
      30_000,
    );
    expect(clustersOf(joined)).toEqual(['member-2', 'member-3']);
    const member2 = await readExport('member-2', 'api');
    expect(conflictOf(member2)?.status).toBe('False');
    expect(member2.metadata.resourceVersion).toBe(member2Before.metadata.resourceVersion);
    expect(joined?.metadata.uid).toBe(apiBefore?.metadata.uid);
  });

  it('logged each step as JSON with the reconcile id, namespace and name, and no error', () => {
    const steps = logs.lines.filter((l) => l.controller === 'service-import' && l.level === 'info');
    expect(steps.map((l) => l.message)).toEqual(
      expect.arrayContaining([
        'added the export finalizer',
        'created the ServiceImport',
        'wrote the ServiceImport status',
        'marked the export conflicted',
        'released the deleted export',
        'deleted the ServiceImport: no cluster exports the service',
        'cleared the ServiceImport status: no cluster exports the service; kept for its afd- annotations',
      ]),
    );
    for (const line of steps) {
      expect(line).toMatchObject({ component: 'hub-gateway', kind: 'ServiceImport', namespace: ns });
      expect(line.reconcileId).toEqual(expect.any(String));
      expect(line.name).toEqual(expect.any(String));
    }
    expect(logs.lines.filter((l) => l.level === 'error')).toEqual([]);
    // Every reconcile saw its own writes in the caches before the key was let go.
    expect(logs.lines.filter((l) => String(l.message).startsWith('the caches did not show'))).toEqual([]);
  });
});
