import type { ReconcileReport } from '@fleet-gateway/azure-frontdoor';

/** How far a programming has come: what its Gateway's status says while it runs. */
export type ProgrammingPhase =
  /** A programming of an earlier model of the Gateway is stopping at its next step; this one starts after it. */
  | { readonly kind: 'waiting' }
  /** Reading the profile, checking and planning: nothing written yet. */
  | { readonly kind: 'reading' }
  /** Writes sent to Azure since `since` (ms since the epoch), whose long-running operations are followed. */
  | { readonly kind: 'writing'; readonly since: number };

/** What a programming needs from its task: the fence it must pass to every write, and where to tell its progress. */
export interface ProgrammingControl {
  /** A reason to write nothing more: a newer model of the Gateway (or its deletion) replaces this programming. */
  readonly fence: () => string | undefined;
  /** Ended when the controller stops. */
  readonly signal: AbortSignal;
  /** Its first write goes out now: the phase its Gateway's status tells. */
  readonly writing: () => void;
  /** It waits `ms` for Azure's operations to end before reading them again. */
  readonly waitingOn: (ms: number) => void;
}

export interface ProgrammingTask {
  readonly hash: string;
  readonly phase: ProgrammingPhase;
  /** Settled (never rejected) when the programming has ended, or when it never started because it was replaced. */
  readonly ended: Promise<void>;
  readonly settled: boolean;
  /**
   * Settled when the programming waits for Azure's operations past `ms` from now: a reconcile that will not wait so
   * long need not wait at all. Never settled once `signal` ends.
   */
  waitsLongerThan(ms: number, signal: AbortSignal): Promise<void>;
}

class Task implements ProgrammingTask {
  phase: ProgrammingPhase = { kind: 'reading' };
  stoppedBy: string | undefined;
  outcome: { readonly report: ReconcileReport } | { readonly error: unknown } | undefined;
  ended: Promise<void> = Promise.resolve();
  private readonly waiters = new Set<{ readonly at: number; readonly resolve: () => void }>();

  constructor(
    readonly hash: string,
    private readonly now: () => number,
  ) {}

  waitsLongerThan(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const waiter = { at: this.now() + ms, resolve };
      this.waiters.add(waiter);
      signal.addEventListener('abort', () => this.waiters.delete(waiter), { once: true });
    });
  }

  /** The programming waits `ms` for its operations. */
  waitingOn(ms: number): void {
    const until = this.now() + ms;
    for (const waiter of this.waiters) {
      if (until <= waiter.at) continue;
      this.waiters.delete(waiter);
      waiter.resolve();
    }
  }

  get settled(): boolean {
    return this.outcome !== undefined;
  }

  stop(reason: string): void {
    this.stoppedBy ??= reason;
  }
}

/**
 * Each Gateway's programming of Azure (reconcileFrontDoor: every level of writes and their long-running operations),
 * run apart from the controller's workers so that no worker waits on an operation other Gateways' reconciles need it
 * for. One task per Gateway key writes its profile at a time: a task for a newer model fences the running one (it
 * stops at its next level, its operations in flight left to end) and starts when it has ended, so two tasks never
 * write one profile at once and ARM never answers AnotherOperationInProgress between them. How many run at once is
 * bounded by nothing but the ARM limiter their requests share.
 */
export class ProgrammingTasks {
  private readonly tasks = new Map<string, Task>();

  /** `now`: ms since the epoch, for when writes began. */
  constructor(private readonly now: () => number = Date.now) {}

  /** Tasks whose programming has not ended. */
  get running(): number {
    let count = 0;
    for (const task of this.tasks.values()) if (!task.settled) count++;
    return count;
  }

  /**
   * The report of the programming of `key` for the model `hash` that ended since it was last asked (it throws what the
   * programming threw); undefined when none did. An ended programming of another model is forgotten.
   */
  takeEnded(key: string, hash: string): ReconcileReport | undefined {
    const task = this.tasks.get(key);
    if (!task?.settled) return undefined;
    if (task.hash !== hash) {
      this.tasks.delete(key);
      return undefined;
    }
    return this.take(key, task);
  }

  /**
   * The running task of `key` for the model `hash`, else a new one, which runs `program` once the task running before
   * it (fenced now) has ended. `started` says which.
   */
  start(
    key: string,
    hash: string,
    signal: AbortSignal,
    program: (control: ProgrammingControl) => Promise<ReconcileReport>,
  ): { readonly task: ProgrammingTask; readonly started: boolean } {
    const before = this.tasks.get(key);
    if (before?.hash === hash && !before.settled && before.stoppedBy === undefined) return { task: before, started: false };
    before?.stop('a newer model of the Gateway replaces the one being programmed');
    const task = new Task(hash, this.now);
    if (before && !before.settled) task.phase = { kind: 'waiting' };
    const control: ProgrammingControl = {
      fence: () => task.stoppedBy,
      signal,
      writing: () => (task.phase = { kind: 'writing', since: this.now() }),
      waitingOn: (ms) => task.waitingOn(ms),
    };
    task.ended = (async () => {
      await before?.ended;
      // Replaced (or its Gateway deleted) before it started: nothing of it is written.
      if (task.stoppedBy !== undefined) {
        task.outcome = { error: new Error(`the programming did not start: ${task.stoppedBy}`) };
        return;
      }
      task.phase = { kind: 'reading' };
      try {
        task.outcome = { report: await program(control) };
      } catch (error) {
        task.outcome = { error };
      }
    })();
    this.tasks.set(key, task);
    return { task, started: true };
  }

  /** The report of `task` once it has ended (it throws what the programming threw), forgetting the task. */
  take(key: string, task: ProgrammingTask): ReconcileReport {
    const own = task as Task;
    if (!own.outcome) throw new Error(`the programming of ${key} has not ended`);
    if (this.tasks.get(key) === own) this.tasks.delete(key);
    if ('error' in own.outcome) throw own.outcome.error;
    return own.outcome.report;
  }

  /** Fences the task of `key` (its Gateway is being deleted): what it has not written yet is not written. */
  stop(key: string, reason: string): ProgrammingTask | undefined {
    const task = this.tasks.get(key);
    task?.stop(reason);
    return task;
  }

  /** Forgets the task of `key`, whose programming must have ended. */
  forget(key: string): void {
    if (this.tasks.get(key)?.settled !== false) this.tasks.delete(key);
  }
}
