import {
  crdInformer,
  type Informer,
  type CheckResult,
  type ControllerMetrics,
  type CustomResourceDefinition,
  type KubeClient,
  type Logger,
  type Manager,
} from '@fleet-gateway/controller';
import { checkFleetCrds, INTERNAL_SERVICE_EXPORT_CRD } from './fleet-crd-check.js';

export interface FleetCrdPrerequisiteOptions {
  readonly manager: Manager;
  readonly client: KubeClient;
  readonly logger: Logger;
  readonly metrics?: ControllerMetrics;
  /** Deep-freeze the cached CRD (InformerOptions.freezeObjects). Default on. */
  readonly freezeObjects?: boolean;
}

/** The readiness check's name on `/readyz`. */
export const FLEET_CRDS_CHECK = 'fleet-crds';

/**
 * Watches the installed InternalServiceExport CRD alone (field-selected by name) and keeps checkFleetCrds' answer
 * as the manager's `fleet-crds` readiness check. It logs one line each time the answer changes — the error says
 * what is installed, what is needed and how to fix it — and writes nothing anywhere.
 */
export class FleetCrdPrerequisite {
  private readonly informer: Informer<CustomResourceDefinition>;
  private last: CheckResult = { ok: false, message: `CRD ${INTERNAL_SERVICE_EXPORT_CRD} not read yet` };

  constructor(private readonly options: FleetCrdPrerequisiteOptions) {
    const { manager, client, logger, metrics, freezeObjects } = options;
    this.informer = manager.addInformer(
      crdInformer(INTERNAL_SERVICE_EXPORT_CRD, { client, logger, ...(metrics ? { metrics } : {}), ...(freezeObjects === undefined ? {} : { freezeObjects }) }),
    );
    this.informer.onLifecycle((event) => {
      if (event.type === 'listed') this.evaluate();
    });
    this.informer.subscribe(() => this.evaluate());
    manager.addReadinessCheck({ name: FLEET_CRDS_CHECK, check: () => this.check() });
  }

  check(): CheckResult {
    return this.last;
  }

  private evaluate(): void {
    const next = checkFleetCrds(this.informer.store.getByName(INTERNAL_SERVICE_EXPORT_CRD));
    if (next.ok === this.last.ok && next.message === this.last.message) return;
    this.last = next;
    if (this.last.ok) this.options.logger.info(`CRD ${INTERNAL_SERVICE_EXPORT_CRD} serves the Fleet extension fields`);
    else this.options.logger.error(this.last.message ?? '');
  }
}
