import { Counter, Histogram, type Registry } from 'prom-client';
import { ARM_OPERATIONS } from './arm-operation.js';
import type { RequestClass } from './rate-limiter.js';

/** `code` of an attempt that got no HTTP answer (connection refused or reset, timeout), as client-go labels it. */
export const NO_RESPONSE_CODE = '<error>';

const WAIT_BUCKETS = [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * ARM metrics of the hub on the caller's registry: every HTTP attempt by resource type, method and status, the 429s
 * among them, and the time requests waited for the shared client-side rate limiter.
 */
export class ArmMetrics {
  private readonly requests: Counter<'operation' | 'method' | 'code'>;
  private readonly throttled: Counter<'operation'>;
  private readonly limiterWait: Histogram<'class'>;

  constructor(registry: Registry) {
    this.requests = new Counter({
      name: 'fleet_gateway_arm_requests_total',
      help: 'ARM HTTP attempts by resource type (operationResults for long-running-operation polls), method and status code; every attempt counts, retries included.',
      labelNames: ['operation', 'method', 'code'],
      registers: [registry],
    });
    this.throttled = new Counter({
      name: 'fleet_gateway_arm_throttled_total',
      help: 'ARM HTTP attempts answered 429 (throttled) by resource type; every attempt counts, retries included.',
      labelNames: ['operation'],
      registers: [registry],
    });
    this.limiterWait = new Histogram({
      name: 'fleet_gateway_arm_rate_limiter_wait_seconds',
      help: "Time each ARM HTTP attempt waited for the client-side rate limiter, by request class (ARM's reads and writes buckets).",
      labelNames: ['class'],
      buckets: WAIT_BUCKETS,
      registers: [registry],
    });
    for (const operation of ARM_OPERATIONS) this.throttled.inc({ operation }, 0);
    for (const requestClass of ['reads', 'writes'] satisfies RequestClass[]) this.limiterWait.zero({ class: requestClass });
  }

  /** One HTTP attempt and its answer (`status` undefined when none came). */
  attempted(operation: string, method: string, status: number | undefined): void {
    this.requests.inc({ operation, method: method.toUpperCase(), code: status === undefined ? NO_RESPONSE_CODE : String(status) });
    if (status === 429) this.throttled.inc({ operation });
  }

  waited(requestClass: RequestClass, seconds: number): void {
    this.limiterWait.observe({ class: requestClass }, seconds);
  }
}
