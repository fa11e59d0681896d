import {
  done,
  isKubeRequestFailure,
  isNotFound,
  objectPath,
  retry,
  type CustomResourceDefinition,
  type KubeClient,
  type ManagedFieldsEntry,
  type ObjectStore,
  type ReconcileContext,
  type ReconcileOutcome,
  type ReconcileRequest,
  type StatusWriter,
} from '@fleet-gateway/controller';
import { GATEWAY_CLASS_CRD, gatewayClasses, type CachedGatewayClass } from './gateway-api-resources.js';
import { gatewayClassStatus, servedSupportedFeatures, servesSupportedFeatures } from './gateway-class-status.js';

export interface GatewayClassReconcilerOptions {
  readonly client: KubeClient;
  readonly gatewayClassStore: ObjectStore<CachedGatewayClass>;
  /** Holds at most the GatewayClass CRD (the informer is field-selected by its name). */
  readonly crdStore: ObjectStore<CustomResourceDefinition>;
  readonly statusWriter: StatusWriter;
  /** The statusWriter's field manager. */
  readonly fieldManager: string;
}

/** `supportedFeatures` is a list-map keyed by name: apply merges our entries with other managers'. */
const LIST_KEYS = { supportedFeatures: ['name'] };

/**
 * One reconcile per GatewayClass name: the status gatewayClassStatus computes from the cached class and CRD,
 * applied under our field manager (the writer sends nothing when our fields already hold it).
 */
export function gatewayClassReconciler(options: GatewayClassReconcilerOptions) {
  const { client, statusWriter, fieldManager } = options;
  return async (request: ReconcileRequest, { logger }: ReconcileContext): Promise<ReconcileOutcome> => {
    const cached = options.gatewayClassStore.getByName(request.name);
    if (!cached) return done();
    const crd = options.crdStore.getByName(GATEWAY_CLASS_CRD);
    const featuresServed = servesSupportedFeatures(crd);
    const status = gatewayClassStatus(cached, featuresServed, servedSupportedFeatures(crd));
    if (!status) return done();
    try {
      const current =
        featuresServed && prunedSupportedFeatures(cached, fieldManager)
          ? await client.get<CachedGatewayClass>(objectPath(gatewayClasses, request.name))
          : cached;
      const result = await statusWriter.apply(gatewayClasses, current, { ...status }, LIST_KEYS);
      if (result.written) {
        const accepted = status.conditions.find((c) => c.type === 'Accepted');
        logger.info('wrote the GatewayClass status', {
          accepted: accepted?.status,
          reason: accepted?.reason,
          supportedFeatures: status.supportedFeatures?.length ?? 'not served by the installed CRD',
        });
      } else {
        logger.debug('in sync; nothing written');
      }
    } catch (error) {
      if (isNotFound(error)) return done();
      if (isKubeRequestFailure(error)) return retry(error as Error);
      throw error;
    }
    return done();
  };
}

/**
 * True when the cached class shows no supportedFeatures although its managedFields say we own some. A watch opened
 * before the CRD began serving the field keeps decoding with the old schema, which prunes it, until it reconnects
 * (minutes): judged from that copy, every resync would write again. Such a class is read from the API server.
 */
function prunedSupportedFeatures(gatewayClass: CachedGatewayClass, fieldManager: string): boolean {
  if ((gatewayClass.status as { supportedFeatures?: unknown } | undefined)?.supportedFeatures !== undefined) return false;
  const ours = ((gatewayClass.metadata.managedFields ?? []) as ManagedFieldsEntry[]).find((e) => e.manager === fieldManager && e.subresource === 'status');
  const fields = ours?.fieldsV1 as { 'f:status'?: Record<string, unknown> } | undefined;
  return fields?.['f:status']?.['f:supportedFeatures'] !== undefined;
}
