import { isNotFound, type CheckResult, type KubeClient, type Logger, type Manager } from '@fleet-gateway/controller';
import { FLEET_CRDS_CHECK } from './fleet-crd-prerequisite.js';
import { checkServedSchema, FLEET_OPENAPI_PATH, type OpenApiDocument } from './served-schema-check.js';

export interface ServedSchemaPrerequisiteOptions {
  readonly manager: Manager;
  /** The hub, with whatever identity the member agent has there (a Role in its own namespace is enough). */
  readonly hubClient: KubeClient;
  readonly logger: Logger;
  /** How soon a failed check is repeated. Default 10 s. */
  readonly failedRecheckMs?: number;
  /** How soon a passed check is repeated (the CRDs may be replaced under a running agent). Default 5 min. */
  readonly passedRecheckMs?: number;
}

/**
 * The member agent's form of the hub's Fleet CRD prerequisite: reads the hub's published OpenAPI schema of
 * InternalServiceExport now and then, and keeps checkServedSchema's answer as the manager's `fleet-crds`
 * readiness check. One log line each time the answer changes; it writes nothing anywhere.
 */
export class ServedSchemaPrerequisite {
  private last: CheckResult = { ok: false, message: `the hub's schema (${FLEET_OPENAPI_PATH}) not read yet` };
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly options: ServedSchemaPrerequisiteOptions) {
    options.manager.addReadinessCheck({ name: FLEET_CRDS_CHECK, check: () => this.check() });
  }

  check(): CheckResult {
    return this.last;
  }

  /** Reads the schema now and then on a timer until stop(); resolves after the first answer. */
  async start(): Promise<void> {
    await this.evaluate();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private async evaluate(): Promise<void> {
    const next = await this.read();
    if (this.stopped) return;
    if (next.ok !== this.last.ok || next.message !== this.last.message) {
      this.last = next;
      if (next.ok) this.options.logger.info("the hub's InternalServiceExport serves the Fleet extension fields");
      else this.options.logger.error(next.message ?? '');
    }
    const delay = next.ok ? (this.options.passedRecheckMs ?? 300_000) : (this.options.failedRecheckMs ?? 10_000);
    this.timer = setTimeout(() => void this.evaluate(), delay);
    this.timer.unref();
  }

  private async read(): Promise<CheckResult> {
    try {
      return checkServedSchema(await this.options.hubClient.get<OpenApiDocument>(FLEET_OPENAPI_PATH));
    } catch (error) {
      // Not published: the group version has no CRD (or the API server has not published it yet).
      if (isNotFound(error)) return checkServedSchema(undefined);
      return { ok: false, message: `the hub's schema (${FLEET_OPENAPI_PATH}) cannot be read: ${(error as Error).message}` };
    }
  }
}
