import { Controller, crdInformer, Informer, requestFor, StatusWriter, type CustomResourceDefinition, type Manager } from '@fleet-gateway/controller';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { GATEWAY_CLASS_CRD, gatewayClasses, type CachedGatewayClass } from './gateway-api-resources.js';
import { gatewayClassReconciler } from './gateway-class-reconciler.js';
import { informerSettings, type SharedInformerSettings } from './informer-options.js';

/** The hub's Gateway API controllers write status under this field manager. */
export const GATEWAY_FIELD_MANAGER = 'hub-gateway';

export interface GatewayClassControllerOptions extends SharedInformerSettings {
  readonly manager: Manager;
  readonly fieldManager?: string;
}

export interface GatewayClassControllers {
  readonly controller: Controller;
  /** Shared cache: the Gateway controller reads the same classes. */
  readonly gatewayClasses: Informer<CachedGatewayClass>;
  /** The GatewayClass CRD: its bundle-version annotation says which Gateway API release the hub serves. */
  readonly gatewayClassCrd: Informer<CustomResourceDefinition>;
  readonly statusWriter: StatusWriter;
}

/**
 * Registers on `manager` an informer of all GatewayClasses, one of the GatewayClass CRD alone (field-selected by
 * name), and the `gateway-class` controller keyed by class name. A change of the CRD — the experimental channel
 * installed or removed — maps to every class of ours, so `supportedFeatures` follows what the CRD serves.
 */
export function registerGatewayClassController(options: GatewayClassControllerOptions): GatewayClassControllers {
  const { manager, client, metrics, logger } = options;
  const common = informerSettings(options);
  const classInformer = manager.addInformer(new Informer<CachedGatewayClass>({ ...common, resource: gatewayClasses }));
  const classCrdInformer = manager.addInformer(crdInformer(GATEWAY_CLASS_CRD, common));
  const fieldManager = options.fieldManager ?? GATEWAY_FIELD_MANAGER;
  const statusWriter = new StatusWriter({ client, fieldManager, logger });
  const controller = manager.addController(
    new Controller({
      name: 'gateway-class',
      kind: 'GatewayClass',
      concurrency: 1,
      logger,
      ...(metrics ? { metrics } : {}),
      reconcile: gatewayClassReconciler({
        client,
        gatewayClassStore: classInformer.store,
        crdStore: classCrdInformer.store,
        statusWriter,
        fieldManager,
      }),
    }),
  );
  controller.watch(classInformer);
  controller.watch(classCrdInformer, () =>
    classInformer.store
      .list()
      .filter((c) => c.spec.controllerName === CONTROLLER_NAME)
      .map((c) => requestFor(c)),
  );
  return { controller, gatewayClasses: classInformer, gatewayClassCrd: classCrdInformer, statusWriter };
}
