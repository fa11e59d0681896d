import { describe, expect, it } from 'vitest';
import { INTERNAL_SERVICE_EXPORT_FINALIZER } from './fleet-names.js';
import { resolveServiceImport, type ServiceImportResolution } from './resolve-service-import.js';
import { exportOf, httpPort, serviceImportOf } from './test-support/exports.js';

const finalizers = [INTERNAL_SERVICE_EXPORT_FINALIZER];
const udpPort = { ...httpPort, protocol: 'UDP' as const };
const t1 = '2030-01-01T00:00:01Z';
const t2 = '2030-01-01T00:00:02Z';
const t3 = '2030-01-01T00:00:03Z';

function resolvedStatus(resolution: ServiceImportResolution) {
  if (resolution.plan.kind !== 'resolved') throw new Error(`expected a resolved plan, got ${resolution.plan.kind}`);
  return resolution.plan;
}
const conflicted = (resolution: ServiceImportResolution) =>
  resolution.verdicts.filter((v) => v.conflicted).map((v) => v.export.spec!.serviceReference.clusterId);

describe('resolveServiceImport', () => {
  it('creates the ServiceImport from the first export, which first gets the finalizer', () => {
    const a = exportOf({ cluster: 'member-1', created: t1 });
    const resolution = resolveServiceImport({ serviceImport: undefined, exports: [a] });
    expect(resolution.plan).toEqual({
      kind: 'resolved',
      create: true,
      newlyResolved: true,
      status: { ports: [httpPort], clusters: [{ cluster: 'member-1' }], type: 'ClusterSetIP' },
    });
    expect(resolution.needFinalizer).toEqual([a]);
    expect(conflicted(resolution)).toEqual([]);
  });

  it('lists every cluster with the same ports, oldest first, each once', () => {
    const exports = [
      exportOf({ cluster: 'member-3', created: t3, finalizers }),
      exportOf({ cluster: 'member-1', created: t1, finalizers }),
      exportOf({ cluster: 'member-2', created: t2, finalizers }),
      // A second export claiming member-1 (another namespace name for the same Service) is not listed twice.
      { ...exportOf({ cluster: 'member-1', created: t3, finalizers }), metadata: { namespace: 'fleet-member-x', name: 'shop-web', finalizers } },
    ];
    const resolution = resolveServiceImport({ serviceImport: undefined, exports });
    expect(resolvedStatus(resolution).status.clusters).toEqual([{ cluster: 'member-1' }, { cluster: 'member-2' }, { cluster: 'member-3' }]);
    expect(resolution.needFinalizer).toEqual([]);
  });

  it('marks the later export with other ports (or protocol) conflicted and leaves it out, whatever the cache order', () => {
    const older = exportOf({ cluster: 'member-1', created: t1, finalizers });
    const otherProtocol = exportOf({ cluster: 'member-2', created: t2, finalizers, ports: [udpPort] });
    const otherPort = exportOf({ cluster: 'member-3', created: t3, finalizers, ports: [{ ...httpPort, port: 8080 }] });
    for (const exports of [
      [older, otherProtocol, otherPort],
      [otherPort, otherProtocol, older],
    ]) {
      const resolution = resolveServiceImport({ serviceImport: undefined, exports });
      expect(resolvedStatus(resolution).status).toEqual({ ports: [httpPort], clusters: [{ cluster: 'member-1' }], type: 'ClusterSetIP' });
      expect(conflicted(resolution)).toEqual(['member-2', 'member-3']);
    }
  });

  it('breaks a tie in creation time by namespace, then name', () => {
    const b = exportOf({ cluster: 'b', created: t1, finalizers, ports: [udpPort] });
    const a = exportOf({ cluster: 'a', created: t1, finalizers });
    const resolution = resolveServiceImport({ serviceImport: undefined, exports: [b, a] });
    expect(resolvedStatus(resolution).status.ports).toEqual([httpPort]);
    expect(conflicted(resolution)).toEqual(['b']);
  });

  it('keeps the ports already resolved while a listed cluster still exports them (upstream resolves only an empty import)', () => {
    const older = exportOf({ cluster: 'member-1', created: t1, finalizers, ports: [udpPort] });
    const listed = exportOf({ cluster: 'member-2', created: t2, finalizers });
    const serviceImport = serviceImportOf({ ports: [httpPort], clusters: [{ cluster: 'member-2' }], type: 'ClusterSetIP' });
    const resolution = resolveServiceImport({ serviceImport, exports: [older, listed] });
    expect(resolvedStatus(resolution)).toMatchObject({ create: false, newlyResolved: false });
    expect(resolvedStatus(resolution).status.clusters).toEqual([{ cluster: 'member-2' }]);
    expect(conflicted(resolution)).toEqual(['member-1']);
  });

  it('keeps a listed cluster no export speaks for, and with it the ports, as upstream does', () => {
    // Upstream's internalserviceexport integration test: status lists "other-cluster", which has no export here.
    const serviceImport = serviceImportOf({ ports: [httpPort], clusters: [{ cluster: 'other-cluster' }], type: 'ClusterSetIP' });
    const same = exportOf({ cluster: 'member-1', created: t1, finalizers });
    expect(resolvedStatus(resolveServiceImport({ serviceImport, exports: [same] })).status.clusters).toEqual([
      { cluster: 'other-cluster' },
      { cluster: 'member-1' },
    ]);
    const other = exportOf({ cluster: 'member-1', created: t1, finalizers, ports: [udpPort] });
    const conflicting = resolveServiceImport({ serviceImport, exports: [other] });
    expect(resolvedStatus(conflicting)).toMatchObject({ newlyResolved: false, status: serviceImport.status });
    expect(conflicted(conflicting)).toEqual(['member-1']);
    // Its export gone, the foreign cluster still holds the import.
    const leaving = exportOf({ cluster: 'member-1', finalizers, deleting: true });
    const left = resolveServiceImport({ serviceImport, exports: [leaving] });
    expect(resolvedStatus(left).status).toEqual(serviceImport.status);
    expect(left.releasable).toEqual([leaving]);
  });

  it('keeps the order of the clusters already listed and appends new ones', () => {
    const serviceImport = serviceImportOf({ ports: [httpPort], clusters: [{ cluster: 'member-3' }, { cluster: 'member-1' }], type: 'ClusterSetIP' });
    const exports = ['member-1', 'member-2', 'member-3'].map((cluster) => exportOf({ cluster, created: t1, finalizers }));
    expect(resolvedStatus(resolveServiceImport({ serviceImport, exports })).status.clusters).toEqual([
      { cluster: 'member-3' },
      { cluster: 'member-1' },
      { cluster: 'member-2' },
    ]);
  });

  it('re-resolves from the oldest export once no export has the resolved ports any more', () => {
    const older = exportOf({ cluster: 'member-1', created: t1, finalizers, ports: [udpPort] });
    const changed = exportOf({ cluster: 'member-2', created: t2, finalizers, ports: [udpPort] });
    const serviceImport = serviceImportOf({ ports: [httpPort], clusters: [{ cluster: 'member-2' }], type: 'ClusterSetIP' });
    const resolution = resolveServiceImport({ serviceImport, exports: [changed, older] });
    expect(resolvedStatus(resolution)).toMatchObject({ newlyResolved: true });
    expect(resolvedStatus(resolution).status).toEqual({
      ports: [udpPort],
      clusters: [{ cluster: 'member-1' }, { cluster: 'member-2' }],
      type: 'ClusterSetIP',
    });
  });

  it('does not count a deleting export, and releases it only if it holds the finalizer', () => {
    const staying = exportOf({ cluster: 'member-1', created: t2, finalizers, ports: [udpPort] });
    const leaving = exportOf({ cluster: 'member-2', created: t1, finalizers, deleting: true });
    const leavingUnheld = exportOf({ cluster: 'member-3', created: t1, deleting: true });
    const serviceImport = serviceImportOf({ ports: [httpPort], clusters: [{ cluster: 'member-2' }], type: 'ClusterSetIP' });
    const resolution = resolveServiceImport({ serviceImport, exports: [leaving, staying, leavingUnheld] });
    expect(resolvedStatus(resolution).status).toEqual({ ports: [udpPort], clusters: [{ cluster: 'member-1' }], type: 'ClusterSetIP' });
    expect(resolution.verdicts.map((v) => v.export)).toEqual([staying]);
    expect(resolution.releasable).toEqual([leaving]);
  });

  it('deletes the ServiceImport when its last export goes', () => {
    const leaving = exportOf({ cluster: 'member-1', finalizers, deleting: true });
    const serviceImport = serviceImportOf({ ports: [httpPort], clusters: [{ cluster: 'member-1' }], type: 'ClusterSetIP' }, { team: 'shop' });
    const resolution = resolveServiceImport({ serviceImport, exports: [leaving] });
    expect(resolution.plan).toEqual({ kind: 'delete' });
    expect(resolution.releasable).toEqual([leaving]);
    expect(resolveServiceImport({ serviceImport: serviceImportOf(), exports: [] }).plan).toEqual({ kind: 'delete' });
  });

  it('keeps a ServiceImport with afd- annotations, status cleared, when nothing is exported (our deviation)', () => {
    const annotations = { 'networking.fleet.azure.com/afd-origin-protocol': 'https' };
    const resolved = serviceImportOf({ ports: [httpPort], clusters: [{ cluster: 'member-1' }], type: 'ClusterSetIP' }, annotations);
    const leaving = exportOf({ cluster: 'member-1', finalizers, deleting: true });
    expect(resolveServiceImport({ serviceImport: resolved, exports: [leaving] }).plan).toEqual({ kind: 'keep-cleared', alreadyClear: false });
    expect(resolveServiceImport({ serviceImport: serviceImportOf({}, annotations), exports: [] }).plan).toEqual({
      kind: 'keep-cleared',
      alreadyClear: true,
    });
    // Another prefix of the same group is the user's own business, not ours: it does not keep the import.
    const unrelated = serviceImportOf(undefined, { 'networking.fleet.azure.com/service-in-use-by': '{}' });
    expect(resolveServiceImport({ serviceImport: unrelated, exports: [] }).plan).toEqual({ kind: 'delete' });
  });

  it('does nothing to a missing ServiceImport, but still releases a deleting export', () => {
    expect(resolveServiceImport({ serviceImport: undefined, exports: [] }).plan).toEqual({ kind: 'absent' });
    const leaving = exportOf({ cluster: 'member-1', finalizers, deleting: true });
    const resolution = resolveServiceImport({ serviceImport: undefined, exports: [leaving] });
    expect(resolution.plan).toEqual({ kind: 'absent' });
    expect(resolution.releasable).toEqual([leaving]);
  });

  it('compares ports only, as upstream does: another Service type or weight is no conflict', () => {
    const loadBalancer = exportOf({ cluster: 'member-1', created: t1, finalizers });
    const clusterIp = exportOf({ cluster: 'member-2', created: t2, finalizers });
    const other = { ...clusterIp, spec: { ...clusterIp.spec!, type: 'ClusterIP', weight: 0 } };
    const resolution = resolveServiceImport({ serviceImport: undefined, exports: [loadBalancer, other] });
    expect(conflicted(resolution)).toEqual([]);
    expect(resolvedStatus(resolution).status.clusters).toEqual([{ cluster: 'member-1' }, { cluster: 'member-2' }]);
  });
});
