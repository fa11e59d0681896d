import { badRequest } from '../arm/errors.js';

/**
 * Fault injection: the next `count` ARM requests matching a method and a path pattern
 * - `status`: answer with an ARM error (429 carries Retry-After), without reaching the resource provider;
 * - `latency`: wait `latencyMs`, then proceed normally;
 * - `reset`: destroy the connection without answering;
 * - `hang`: never answer; the connection stays open until the client gives up (a hung ARM front end);
 * - `lro-failure`: proceed, but the long-running operation the request starts ends Failed.
 */
export type FaultKind = 'status' | 'latency' | 'reset' | 'hang' | 'lro-failure';
const FAULT_STATUSES = [400, 403, 409, 429, 500, 503] as const;

export interface FaultSpec {
  kind: FaultKind;
  /** HTTP method to match, or '*' (the default). */
  method?: string;
  /** A regular expression matched case-insensitively against the request path; default: every path. */
  pathPattern?: string;
  /** How many matching requests the fault applies to; default 1. */
  count?: number;
  status?: (typeof FAULT_STATUSES)[number];
  latencyMs?: number;
  /** Overrides the ARM error code / message of a `status` or `lro-failure` fault. */
  code?: string;
  message?: string;
  retryAfterSeconds?: number;
}

export interface Fault extends Required<Pick<FaultSpec, 'kind' | 'method' | 'pathPattern' | 'count'>> {
  id: number;
  remaining: number;
  spec: FaultSpec;
}

const KINDS: readonly FaultKind[] = ['status', 'latency', 'reset', 'hang', 'lro-failure'];

export class FaultInjector {
  private faults: Array<Fault & { regex: RegExp }> = [];
  private nextId = 1;

  add(spec: FaultSpec): Fault {
    const validated = validateFault(spec);
    const fault = {
      id: this.nextId++,
      kind: validated.kind,
      method: (validated.method ?? '*').toUpperCase(),
      pathPattern: validated.pathPattern ?? '.*',
      count: validated.count ?? 1,
      remaining: validated.count ?? 1,
      spec: validated,
      regex: new RegExp(validated.pathPattern ?? '.*', 'i'),
    };
    this.faults.push(fault);
    return publicView(fault);
  }

  /** Consumes one application of the first fault of the given kind matching the request. */
  take(kind: FaultKind, method: string, path: string): FaultSpec | undefined {
    const fault = this.faults.find(
      (candidate) =>
        candidate.kind === kind && candidate.remaining > 0 && (candidate.method === '*' || candidate.method === method) && candidate.regex.test(path),
    );
    if (fault === undefined) return undefined;
    fault.remaining -= 1;
    if (fault.remaining === 0) this.faults = this.faults.filter((candidate) => candidate !== fault);
    return fault.spec;
  }

  list(): Fault[] {
    return this.faults.map(publicView);
  }

  clear(): void {
    this.faults = [];
  }
}

function publicView(fault: Fault & { regex?: RegExp }): Fault {
  const { regex: _regex, ...rest } = fault;
  return rest;
}

function validateFault(spec: FaultSpec): FaultSpec {
  if (!KINDS.includes(spec.kind)) throw badRequest(`'kind' must be one of ${KINDS.join(', ')}; got ${JSON.stringify(spec.kind)}.`);
  if (spec.count !== undefined && (!Number.isInteger(spec.count) || spec.count < 1)) {
    throw badRequest(`'count' must be a positive integer; got ${JSON.stringify(spec.count)}.`);
  }
  if (spec.kind === 'status' && !(FAULT_STATUSES as readonly number[]).includes(spec.status as number)) {
    throw badRequest(`'status' must be one of ${FAULT_STATUSES.join(', ')} for a status fault; got ${JSON.stringify(spec.status)}.`);
  }
  if (spec.kind === 'latency' && (typeof spec.latencyMs !== 'number' || spec.latencyMs < 0)) {
    throw badRequest(`'latencyMs' must be a non-negative number for a latency fault; got ${JSON.stringify(spec.latencyMs)}.`);
  }
  try {
    new RegExp(spec.pathPattern ?? '.*', 'i');
  } catch {
    throw badRequest(`'pathPattern' must be a valid regular expression; got ${JSON.stringify(spec.pathPattern)}.`);
  }
  return spec;
}

const DEFAULT_ERRORS: Record<number, { code: string; message: string }> = {
  // A value ARM refuses that the hub's plan does not check: how one team's resource is refused in tests.
  400: { code: 'BadRequest', message: 'The request is invalid (injected fault).' },
  403: { code: 'AuthorizationFailed', message: 'The client does not have authorization to perform this action (injected fault).' },
  409: { code: 'Conflict', message: 'The request conflicts with the current state of the resource (injected fault).' },
  429: { code: 'TooManyRequests', message: 'The request was throttled (injected fault). Retry after the interval in Retry-After.' },
  500: { code: 'InternalServerError', message: 'An internal error occurred (injected fault).' },
  503: { code: 'ServiceUnavailable', message: 'The service is temporarily unavailable (injected fault).' },
};

export function faultError(spec: FaultSpec): { status: number; code: string; message: string; headers: Record<string, string> } {
  const status = spec.status ?? 500;
  const defaults = DEFAULT_ERRORS[status] ?? { code: 'InternalServerError', message: 'Injected fault.' };
  const headers: Record<string, string> = status === 429 || status === 503 ? { 'retry-after': String(spec.retryAfterSeconds ?? 1) } : {};
  return { status, code: spec.code ?? defaults.code, message: spec.message ?? defaults.message, headers };
}
