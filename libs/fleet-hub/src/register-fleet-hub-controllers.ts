import {
  Controller,
  type CheckResult,
  Informer,
  StatusWriter,
  type ControllerRegistrationOptions,
  type KubeClient,
  parseRequestKey,
} from '@fleet-gateway/controller';
import {
  EXPORTED_SERVICE_INDEX,
  exportedServiceOf,
  internalServiceExports,
  serviceImports,
  type CachedInternalServiceExport,
  type CachedServiceImport,
} from './fleet-resources.js';
import { serviceImportReconciler } from './service-import-reconciler.js';

/** The hub's Fleet side writes under this field manager: ServiceImport status and the exports' `Conflict`. */
export const FLEET_HUB_FIELD_MANAGER = 'hub-gateway-service-import';

/** `concurrency`: different ServiceImports reconciled at once, default 2. */
export interface FleetHubControllerOptions extends ControllerRegistrationOptions {
  readonly client: KubeClient;
  /** The Fleet CRD prerequisite (FleetCrdPrerequisite): while it fails, reconciles write nothing and come back later. */
  readonly prerequisite?: { check(): CheckResult };
}

export interface FleetHubControllers {
  readonly controller: Controller;
  /** Shared caches: the Gateway side of the hub agent reads the same ServiceImports and exports. */
  readonly serviceImports: Informer<CachedServiceImport>;
  readonly internalServiceExports: Informer<CachedInternalServiceExport>;
  readonly statusWriter: StatusWriter;
}

/**
 * Registers on `manager` what replaces fleet-networking's hub serviceimport and internalserviceexport controllers:
 * informers of all ServiceImports and InternalServiceExports, and one controller keyed by ServiceImport that an
 * export maps to through its serviceReference (old and new, so a re-pointed export leaves its former import too).
 */
export function registerFleetHubControllers(options: FleetHubControllerOptions): FleetHubControllers {
  const { manager, client, metrics, logger } = options;
  const settings = {
    ...(options.resyncPeriodMs === undefined ? {} : { resyncPeriodMs: options.resyncPeriodMs }),
    ...(options.freezeObjects === undefined ? {} : { freezeObjects: options.freezeObjects }),
  };
  const importInformer = manager.addInformer(
    new Informer<CachedServiceImport>({ client, resource: serviceImports, logger, ...(metrics ? { metrics } : {}), ...settings }),
  );
  const exportInformer = manager.addInformer(
    new Informer<CachedInternalServiceExport>({
      client,
      resource: internalServiceExports,
      indexers: { [EXPORTED_SERVICE_INDEX]: exportedServiceOf },
      logger,
      ...(metrics ? { metrics } : {}),
      ...settings,
    }),
  );
  const statusWriter = new StatusWriter({ client, fieldManager: options.fieldManager ?? FLEET_HUB_FIELD_MANAGER, logger });
  const controller = manager.addController(
    new Controller({
      name: 'service-import',
      kind: 'ServiceImport',
      concurrency: options.concurrency ?? 2,
      logger,
      ...(metrics ? { metrics } : {}),
      reconcile: serviceImportReconciler({
        client,
        serviceImportStore: importInformer.store,
        exportStore: exportInformer.store,
        statusWriter,
        events: options.events,
        ...(options.prerequisite ? { prerequisite: options.prerequisite } : {}),
      }),
    }),
  );
  controller.watch(importInformer);
  controller.watch(exportInformer, (ise) => exportedServiceOf(ise).map(parseRequestKey));
  return { controller, serviceImports: importInformer, internalServiceExports: exportInformer, statusWriter };
}
