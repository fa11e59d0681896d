import {
  done,
  isKubeRequestFailure,
  isConflict,
  isNotFound,
  objectPath,
  requeueAfter,
  retry,
  setFinalizer,
  type EventRecorder,
  type KubeClient,
  type ObjectStore,
  type ReconcileContext,
  type ReconcileOutcome,
  type ReconcileRequest,
  type StatusWriter,
  type CheckResult,
} from '@fleet-gateway/controller';
import type { HubExportWriter } from './hub-export-writer.js';
import { internalServiceExportName, SERVICE_EXPORT_FINALIZER } from './member-names.js';
import { serviceExports, type CachedInternalServiceExport, type CachedService, type CachedServiceExport } from './member-resources.js';
import type { OriginDiscovery, OriginObservation } from './origin-observation.js';
import { resolveServiceExport, type ServiceExportResolution } from './resolve-service-export.js';

export interface ServiceExportReconcilerOptions {
  readonly memberCluster: string;
  readonly memberClient: KubeClient;
  readonly hubNamespace: string;
  readonly serviceExportStore: ObjectStore<CachedServiceExport>;
  readonly serviceStore: ObjectStore<CachedService>;
  /** The hub's InternalServiceExports in the member's namespace only. */
  readonly hubExportStore: ObjectStore<CachedInternalServiceExport>;
  readonly hubWriter: HubExportWriter;
  /** Writes ServiceExport status under the member's field manager. */
  readonly statusWriter: StatusWriter;
  readonly events: EventRecorder;
  readonly discovery: OriginDiscovery;
  /** While it fails (the hub's InternalServiceExport lacks the extension fields), nothing is written. */
  readonly prerequisite?: { check(): CheckResult };
  readonly now?: () => Date;
}

/** How soon a key held back by the prerequisite is tried again. */
const PREREQUISITE_RETRY_MS = 5_000;

/** How soon a key whose write met a newer object than the cached one is looked at again (its event usually comes first). */
const CACHE_BEHIND_RETRY_MS = 500;

/**
 * One reconcile per ServiceExport key (`<namespace>/<name>`, the same as its Service's): reads the caches, asks
 * discovery about the Service's origin, lets resolveServiceExport decide, and writes in upstream's order — a hub
 * delete before the finalizer comes off, the finalizer on before the hub export is created.
 */
export function serviceExportReconciler(options: ServiceExportReconcilerOptions) {
  const { statusWriter, hubWriter, events } = options;
  const now = options.now ?? (() => new Date());

  return async (request: ReconcileRequest, { logger, signal }: ReconcileContext): Promise<ReconcileOutcome> => {
    if (options.prerequisite && !options.prerequisite.check().ok) {
      return requeueAfter(PREREQUISITE_RETRY_MS, "the hub's InternalServiceExport lacks the extension fields");
    }
    const namespace = request.namespace ?? '';
    const serviceExport = options.serviceExportStore.getByName(request.name, namespace);
    const service = options.serviceStore.getByName(request.name, namespace);
    const hubName = internalServiceExportName(namespace, request.name);
    const hubExport = options.hubExportStore.getByName(hubName, options.hubNamespace);
    const hubExportRef = `${options.hubNamespace}/${hubName}`;
    let resolution: ServiceExportResolution;
    try {
      const origin = await observeOrigin(serviceExport, service, hubExport, hubExportRef, signal);
      resolution = resolveServiceExport({
        memberCluster: options.memberCluster,
        namespace,
        name: request.name,
        serviceExport,
        service,
        hubExport,
        origin,
        now: now(),
      });
    } catch (error) {
      if (!isKubeRequestFailure(error)) throw error;
      return retry(error as Error);
    }

    try {
      let current = serviceExport;
      const { hub } = resolution;
      if (hub.kind === 'delete') {
        await hubWriter.delete(hubName, hub.uid);
        options.discovery.forget?.(namespace, request.name);
        logger.info('unexported the Service: deleted its InternalServiceExport on the hub', { export: hubExportRef });
      }
      if (current && resolution.finalizer === 'add') {
        current = (await setFinalizer(options.memberClient, serviceExports, current, SERVICE_EXPORT_FINALIZER, true)) ?? current;
        logger.info('added the ServiceExport cleanup finalizer');
      }
      if (current && resolution.conditions) {
        const result = await statusWriter.apply(serviceExports, current, { conditions: resolution.conditions });
        if (result.written) {
          current = result.object;
          logger.info('wrote the ServiceExport status', { conditions: resolution.conditions.map((c) => `${c.type}=${c.status}/${c.reason}`).join(', ') });
        }
        // The events report the conditions just written: recorded once they are there, so a failed write repeats both.
        for (const event of resolution.events) events.record(current, event.type, event.reason, 'Export', event.note);
      }
      if (current && resolution.annotations) {
        current = await patchMetadata(options.memberClient, current, { annotations: resolution.annotations });
      }
      if (hub.kind === 'apply') {
        const written = await hubWriter.apply(hubName, hubExport, hub.spec);
        if (written)
          logger.info(hubExport ? 'updated the InternalServiceExport on the hub' : 'exported the Service to the hub', {
            export: hubExportRef,
            weight: hub.spec.weight,
          });
      }
      if (current && resolution.finalizer === 'remove') {
        await setFinalizer(options.memberClient, serviceExports, current, SERVICE_EXPORT_FINALIZER, false);
        logger.info('removed the ServiceExport cleanup finalizer');
      }
    } catch (error) {
      if (!isKubeRequestFailure(error)) throw error;
      // A precondition failed because the cache was behind a write (often our own): look again, nothing is wrong.
      if (isConflict(error)) return requeueAfter(CACHE_BEHIND_RETRY_MS, 'the ServiceExport changed since it was cached (409 Conflict)');
      return retry(error as Error);
    }
    return resolution.requeue ? requeueAfter(resolution.requeue.afterMs, resolution.requeue.reason) : done();
  };

  async function observeOrigin(
    serviceExport: CachedServiceExport | undefined,
    service: CachedService | undefined,
    hubExport: CachedInternalServiceExport | undefined,
    hubExportRef: string,
    signal: AbortSignal,
  ): Promise<OriginObservation | undefined> {
    const live = (object: { metadata: { deletionTimestamp?: string } } | undefined) => object !== undefined && object.metadata.deletionTimestamp === undefined;
    if (!live(serviceExport) || !live(service)) return undefined;
    return options.discovery.observe(service!, { hubExport, hubExportRef, signal });
  }
}

async function patchMetadata(client: KubeClient, se: CachedServiceExport, metadata: Record<string, unknown>): Promise<CachedServiceExport> {
  const { name, namespace, resourceVersion } = se.metadata;
  try {
    return await client.patch<CachedServiceExport>(objectPath(serviceExports, name, namespace), { metadata: { resourceVersion, ...metadata } }, 'merge');
  } catch (error) {
    // Gone meanwhile: its delete event brings the key back.
    if (isNotFound(error)) return se;
    throw error;
  }
}
