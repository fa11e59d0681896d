import {
  collectionPath,
  done,
  isNotFound,
  isKubeRequestFailure,
  objectKey,
  objectPath,
  requeueAfter,
  retry,
  setFinalizer,
  type CheckResult,
  type EventRecorder,
  type KubeClient,
  type KubeObject,
  type ObjectStore,
  type ReconcileContext,
  type ReconcileOutcome,
  requestKey,
  type ReconcileRequest,
  type StatusWriter,
} from '@fleet-gateway/controller';
import { WrittenObjects } from './cache-catch-up.js';
import { conflictCondition } from './conflict-condition.js';
import {
  EXPORTED_SERVICE_INDEX,
  internalServiceExports,
  serviceImports,
  type CachedInternalServiceExport,
  type CachedServiceImport,
} from './fleet-resources.js';
import { INTERNAL_SERVICE_EXPORT_FINALIZER, NO_EXPORT_EVENT_REASON, RESOLVED_EVENT_REASON } from './fleet-names.js';
import { resolveServiceImport, type ExportVerdict, type ResolvedImportStatus } from './resolve-service-import.js';
import { describePorts } from './service-ports.js';

export interface ServiceImportReconcilerOptions {
  readonly client: KubeClient;
  readonly serviceImportStore: ObjectStore<CachedServiceImport>;
  /** Must carry the EXPORTED_SERVICE_INDEX index. */
  readonly exportStore: ObjectStore<CachedInternalServiceExport>;
  /** Writes ServiceImport and InternalServiceExport status under the hub's Fleet field manager. */
  readonly statusWriter: StatusWriter;
  readonly events: EventRecorder;
  /** How long a reconcile waits for the caches to show its own writes. Default 10 s. */
  readonly cacheCatchUpMs?: number;
  /** While this fails (the installed CRDs prune the extension fields), nothing is written. */
  readonly prerequisite?: { check(): CheckResult };
}

/** How soon a key held back by the prerequisite is tried again. */
const PREREQUISITE_RETRY_MS = 5_000;

/**
 * One reconcile per ServiceImport key (`<namespace>/<name>` of the exported Service): reads the cached
 * ServiceImport and exports, asks resolveServiceImport what they should be, and writes only what differs, in
 * upstream's order — finalizers first, then the ServiceImport, then each export's `Conflict`, and a deleting
 * export's finalizer last, once the ServiceImport no longer lists its cluster.
 */
export function serviceImportReconciler(options: ServiceImportReconcilerOptions) {
  const { client, statusWriter, events } = options;
  const exportStore = options.exportStore as unknown as ObjectStore<KubeObject>;
  const importStore = options.serviceImportStore as unknown as ObjectStore<KubeObject>;

  return async (request: ReconcileRequest, { logger, signal }: ReconcileContext): Promise<ReconcileOutcome> => {
    if (options.prerequisite && !options.prerequisite.check().ok) {
      return requeueAfter(PREREQUISITE_RETRY_MS, 'the installed Fleet CRDs lack the extension fields');
    }
    const namespace = request.namespace ?? '';
    const current = options.serviceImportStore.getByName(request.name, namespace);
    const exports = options.exportStore.byIndex(EXPORTED_SERVICE_INDEX, requestKey({ namespace, name: request.name }));
    const resolution = resolveServiceImport({ serviceImport: current, exports });
    const written = new WrittenObjects();
    try {
      const finalized = new Map<string, CachedInternalServiceExport>();
      for (const ise of resolution.needFinalizer) {
        const updated = await setFinalizer(client, internalServiceExports, ise, INTERNAL_SERVICE_EXPORT_FINALIZER, true);
        if (!updated) continue;
        written.record(exportStore, objectKey(ise), ise, updated);
        finalized.set(objectKey(ise), updated);
        logger.info('added the export finalizer', { export: objectKey(ise) });
      }

      const { plan } = resolution;
      switch (plan.kind) {
        case 'absent':
          break;
        case 'resolved': {
          const base = current ?? (await createServiceImport(client, namespace, request.name));
          if (!current) {
            written.record(importStore, objectKey(base), undefined, base);
            logger.info('created the ServiceImport');
          }
          const result = await statusWriter.apply(serviceImports, base, { ...plan.status });
          if (result.written) {
            written.record(importStore, objectKey(base), current, result.object);
            logger.info('wrote the ServiceImport status', statusFields(plan.status));
            if (plan.newlyResolved) {
              events.record(
                result.object,
                'Normal',
                RESOLVED_EVENT_REASON,
                'Resolve',
                `Resolved exported service properties and updated ${request.name} status: ports ${describePorts(plan.status.ports)}, clusters ${clusterNames(plan.status)}`,
              );
            }
          }
          break;
        }
        case 'delete':
          await deleteServiceImport(client, current!);
          written.record(importStore, objectKey(current!), current, undefined);
          logger.info('deleted the ServiceImport: no cluster exports the service');
          events.record(current!, 'Normal', NO_EXPORT_EVENT_REASON, 'Delete', `No exported service and deleting serviceImport ${request.name}`);
          break;
        case 'keep-cleared':
          if (plan.alreadyClear) break;
          written.record(importStore, objectKey(current!), current, await clearServiceImportStatus(client, current!));
          logger.info('cleared the ServiceImport status: no cluster exports the service; kept for its afd- annotations');
          events.record(
            current!,
            'Normal',
            NO_EXPORT_EVENT_REASON,
            'Clear',
            `No exported service; keeping serviceImport ${request.name} for its afd- annotations, status cleared`,
          );
          break;
      }

      for (const verdict of resolution.verdicts) {
        const ise = finalized.get(objectKey(verdict.export)) ?? verdict.export;
        const updated = await writeConflict(statusWriter, ise, verdict);
        if (updated) {
          written.record(exportStore, objectKey(ise), verdict.export, updated);
          logger.info(verdict.conflicted ? 'marked the export conflicted' : 'marked the export free of conflict', {
            export: objectKey(ise),
            cluster: ise.spec?.serviceReference.clusterId,
          });
          if (verdict.conflicted && plan.kind === 'resolved') {
            events.record(
              ise,
              'Warning',
              'ServiceExportConflict',
              'Resolve',
              `ports ${describePorts(ise.spec?.ports)} differ from ServiceImport ${namespace}/${request.name}'s ports ${describePorts(plan.status.ports)}`,
            );
          }
        }
      }

      for (const ise of resolution.releasable) {
        const released = await setFinalizer(client, internalServiceExports, ise, INTERNAL_SERVICE_EXPORT_FINALIZER, false);
        if (!released) continue;
        // With no finalizer left the export is gone: its cache entry goes, or shows the release.
        written.record(exportStore, objectKey(ise), ise, released);
        logger.info('released the deleted export', { export: objectKey(ise), cluster: ise.spec?.serviceReference.clusterId });
      }
    } catch (error) {
      if (!isKubeRequestFailure(error)) throw error;
      await catchUp();
      return retry(error as Error);
    }
    if (written.size === 0) logger.debug('in sync; nothing written');
    await catchUp();
    return done();

    async function catchUp(): Promise<void> {
      if (!(await written.awaitCaches(signal, options.cacheCatchUpMs))) {
        logger.info('the caches did not show this reconcile’s writes in time; the next event brings the key back');
      }
    }
  };
}

function statusFields(status: ResolvedImportStatus): Record<string, string> {
  return { ports: describePorts(status.ports), clusters: clusterNames(status) };
}

function clusterNames(status: ResolvedImportStatus): string {
  return status.clusters.map((c) => c.cluster).join(', ') || 'none';
}

/** The export as written, or undefined when nothing needed writing or it is gone. */
async function writeConflict(
  writer: StatusWriter,
  ise: CachedInternalServiceExport,
  verdict: ExportVerdict<CachedInternalServiceExport>,
): Promise<CachedInternalServiceExport | undefined> {
  try {
    const result = await writer.apply(internalServiceExports, ise, { conditions: [conflictCondition(ise, verdict.conflicted)] });
    return result.written ? result.object : undefined;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

/** Upstream creates the ServiceImport bare: no labels, no annotations (those belong to the user). */
function createServiceImport(client: KubeClient, namespace: string, name: string): Promise<CachedServiceImport> {
  const body = { apiVersion: 'networking.fleet.azure.com/v1alpha1', kind: 'ServiceImport', metadata: { name, namespace } };
  return client.create<CachedServiceImport>(collectionPath(serviceImports, namespace), body);
}

/** Deletes exactly the version that was judged unexported: a concurrent edit (a new afd- annotation) makes it 409. */
async function deleteServiceImport(client: KubeClient, serviceImport: CachedServiceImport): Promise<void> {
  const { name, namespace, uid, resourceVersion } = serviceImport.metadata;
  try {
    await client.request('DELETE', objectPath(serviceImports, name!, namespace), {
      body: { apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid, resourceVersion } },
    });
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Upstream resets the whole status (`Status = ServiceImportStatus{}`); a merge patch nulls every field present. */
async function clearServiceImportStatus(client: KubeClient, serviceImport: CachedServiceImport): Promise<CachedServiceImport> {
  const { name, namespace, resourceVersion } = serviceImport.metadata;
  const cleared = Object.fromEntries(Object.keys(serviceImport.status ?? {}).map((key) => [key, null]));
  return client.patch(`${objectPath(serviceImports, name!, namespace)}/status`, { metadata: { resourceVersion }, status: cleared }, 'merge');
}
