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

export interface StartOperation extends Pick<Operation, 'subscriptionId' | 'provider' | 'location' | 'apiVersion' | 'method' | 'resourceKey'> {
  /** Set when a fault asks this operation to end Failed. */
  failWith?: OperationError;
  /** Applies the outcome to the resource; called once, when the operation ends (never after cancel). */
  complete: (outcome: 'Succeeded' | 'Failed') => void;
}

/** Finished operations kept for clients that poll late; the oldest are forgotten beyond this many. */
const RETAINED_OPERATIONS = 10_000;

/**
 * Long-running operations as ARM runs them: the initial response points at an operation status resource
 * (Azure-AsyncOperation) and a result resource (Location); the operation ends after a configurable delay.
 */
export class OperationTracker {
  private readonly operations = new Map<string, Operation>();
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; finish: () => void }>();

  constructor(private readonly delayMs: () => number) {}

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
      startTime: new Date().toISOString(),
    };
    this.operations.set(operation.id, operation);
    this.forgetOldest();
    const finish = (): void => {
      this.clearTimer(operation.id);
      if (operation.status !== 'InProgress') return;
      const outcome = request.failWith === undefined ? 'Succeeded' : 'Failed';
      operation.status = outcome;
      operation.endTime = new Date().toISOString();
      if (request.failWith !== undefined) operation.error = request.failWith;
      request.complete(outcome);
    };
    const delay = this.delayMs();
    if (delay <= 0) {
      finish();
    } else {
      const timer = setTimeout(finish, delay);
      timer.unref();
      this.timers.set(operation.id, { timer, finish });
    }
    return operation;
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
