import { randomUUID } from 'node:crypto';

export type OperationStatus = 'InProgress' | 'Succeeded' | 'Failed' | 'Canceled';
export type OperationMethod = 'PUT' | 'PATCH' | 'DELETE' | 'POST';

export interface OperationError {
  code: string;
  message: string;
}

export interface Operation {
  id: string;
  subscriptionId: string;
  provider: string;
  location: string;
  apiVersion: string;
  method: OperationMethod;
  resourceKey: string;
  status: OperationStatus;
  startTime: string;
  endTime?: string;
  error?: OperationError;
}

/** What an operation does to its resource, which decides how long it runs. */
export type OperationAction = 'create' | 'update' | 'delete';

/**
 * How long operations run and the Retry-After their answers carry (a named profile: `operation-timings.ts`).
 * `ends: 'timer'` ends an operation when a real-time timer of its duration fires; `'clock'` when the emulator's clock
 * passes its deadline, so a test that moves the clock moves the operations with it.
 */
export interface OperationTiming {
  ends: 'timer' | 'clock';
  /** How long an operation of this kind and action runs, in ms; `action` is undefined for a POST action. */
  durationMs(kindKey: string, action: OperationAction | undefined): number;
  /** Retry-After (seconds) on the 201/202 that starts a running operation; undefined sends none. */
  acceptedRetryAfterSeconds?: number;
  /** Retry-After (seconds) on a status poll of a running operation; undefined sends none. */
  pollRetryAfterSeconds?: number;
  /** Whether a write whose operation ended within the request still answers with the operation's URLs. */
  operationHeadersWhenEnded: boolean;
}

export interface StartOperation extends Pick<Operation, 'subscriptionId' | 'provider' | 'location' | 'apiVersion' | 'method' | 'resourceKey'> {
  /** How long the operation runs; 0 or less ends it within the request. */
  durationMs: number;
  /** Set when a fault asks this operation to end Failed. */
  failWith?: OperationError;
  /** Applies the outcome to the resource; called once, when the operation ends (never after cancel). */
  complete: (outcome: 'Succeeded' | 'Failed') => void;
}

/** Finished operations kept for clients that poll late; the oldest are forgotten beyond this many. */
const RETAINED_OPERATIONS = 10_000;

interface RunningTimer {
  timer: NodeJS.Timeout;
  finish: () => void;
  /** The end on the emulator's clock, for operations that end by it. */
  deadline?: number;
}

/**
 * Long-running operations as ARM runs them: the initial response points at an operation status resource
 * (Azure-AsyncOperation) and a result resource (Location); the operation ends after its duration, by a real-time
 * timer or by the emulator's clock (`OperationTiming.ends`).
 */
export class OperationTracker {
  private readonly operations = new Map<string, Operation>();
  private readonly timers = new Map<string, RunningTimer>();

  constructor(
    private readonly ends: OperationTiming['ends'],
    private readonly now: () => number = Date.now,
  ) {}

  start(request: StartOperation): Operation {
    const operation: Operation = {
      id: randomUUID(),
      subscriptionId: request.subscriptionId,
      provider: request.provider,
      location: request.location,
      apiVersion: request.apiVersion,
      method: request.method,
      resourceKey: request.resourceKey,
      status: 'InProgress',
      startTime: new Date(this.now()).toISOString(),
    };
    this.operations.set(operation.id, operation);
    this.forgetOldest();
    const finish = (): void => {
      this.clearTimer(operation.id);
      if (operation.status !== 'InProgress') return;
      const outcome = request.failWith === undefined ? 'Succeeded' : 'Failed';
      operation.status = outcome;
      operation.endTime = new Date(this.now()).toISOString();
      if (request.failWith !== undefined) operation.error = request.failWith;
      request.complete(outcome);
    };
    if (request.durationMs <= 0) finish();
    else if (this.ends === 'timer') this.arm(operation.id, finish, request.durationMs);
    else this.arm(operation.id, finish, request.durationMs, this.now() + request.durationMs);
    return operation;
  }

  /**
   * Ends the operations whose deadline the clock has passed: a test's clock moves without firing their timers, so
   * every ARM request settles them before it is answered. Returns how many ended.
   */
  finishDue(): number {
    if (this.ends === 'timer') return 0;
    const now = this.now();
    const due = [...this.timers.values()].filter((running) => (running.deadline as number) <= now);
    due.sort((a, b) => (a.deadline as number) - (b.deadline as number));
    for (const { finish } of due) finish();
    return due.length;
  }

  get(id: string): Operation | undefined {
    return this.operations.get(id);
  }

  /** Ends an operation whose resource disappeared underneath it (a cascade delete of its parent). */
  cancel(id: string): void {
    const operation = this.operations.get(id);
    if (operation === undefined || operation.status !== 'InProgress') return;
    this.clearTimer(id);
    operation.status = 'Canceled';
    operation.endTime = new Date().toISOString();
  }

  isRunning(id: string | undefined): boolean {
    return id !== undefined && this.operations.get(id)?.status === 'InProgress';
  }

  all(): Operation[] {
    return [...this.operations.values()];
  }

  private forgetOldest(): void {
    if (this.operations.size <= RETAINED_OPERATIONS) return;
    for (const [id, operation] of this.operations) {
      if (this.operations.size <= RETAINED_OPERATIONS) return;
      if (operation.status !== 'InProgress') this.operations.delete(id);
    }
  }

  /** Ends every running operation now, as its timer would have: returns how many ended. */
  finishAll(): number {
    const running = [...this.timers.values()];
    for (const { finish } of running) finish();
    return running.length;
  }

  stop(): void {
    for (const { timer } of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** A timer that ends the operation after `delayMs`, or, with a deadline, checks the clock then and waits on if needed. */
  private arm(id: string, finish: () => void, delayMs: number, deadline?: number): void {
    const timer = setTimeout(() => (deadline === undefined ? finish() : this.finishIfDue(id)), delayMs);
    timer.unref();
    this.timers.set(id, { timer, finish, ...(deadline === undefined ? {} : { deadline }) });
  }

  private finishIfDue(id: string): void {
    const running = this.timers.get(id);
    if (running?.deadline === undefined) return;
    const remaining = running.deadline - this.now();
    if (remaining <= 0) running.finish();
    else this.arm(id, running.finish, remaining, running.deadline);
  }

  private clearTimer(id: string): void {
    clearTimeout(this.timers.get(id)?.timer);
    this.timers.delete(id);
  }
}

export function operationStatusPath(operation: Operation): string {
  return `${operationScope(operation)}/operationStatuses/${operation.id}`;
}

export function operationResultPath(operation: Operation): string {
  return `${operationScope(operation)}/operationResults/${operation.id}`;
}

function operationScope(operation: Operation): string {
  return `/subscriptions/${operation.subscriptionId}/providers/${operation.provider}/locations/${encodeURIComponent(operation.location)}`;
}

/** The body of GET on the Azure-AsyncOperation URL. */
export function operationStatusBody(operation: Operation): Record<string, unknown> {
  return {
    id: operationStatusPath(operation),
    name: operation.id,
    status: operation.status,
    startTime: operation.startTime,
    ...(operation.endTime === undefined ? {} : { endTime: operation.endTime }),
    ...(operation.error === undefined ? {} : { error: operation.error }),
  };
}
