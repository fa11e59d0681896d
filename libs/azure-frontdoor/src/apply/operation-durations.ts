/** A learned duration is never waited longer than this before a first read: one slow outlier must not hold every later write. */
const MAX_EXPECTED_MS = 5 * 60_000;
/** Each operation that had already ended at its first read lowers the estimate by this factor, so it follows Azure down too. */
const EARLY_END_FACTOR = 0.9;

/**
 * How long Front Door's long-running operations take, per resource kind and action, learned from the operations this
 * process saw end: the first read of a new operation waits that long, so that it mostly finds the operation ended and
 * a write costs about one read whatever Azure's durations are. An operation seen ended only after some reads teaches
 * when it was seen ended (an upper bound); one ended at its first read teaches a little less than that, so the
 * estimate comes down when Azure speeds up. A kind not seen yet borrows the longest estimate of the same action, else of any action (Front Door's
 * operations all take about as long).
 */
export class OperationDurations {
  private readonly expected = new Map<string, number>();

  /** The expected duration of `action` on `kind`, if any operation taught one. */
  expectedMs(kind: string, action: string): number | undefined {
    const own = this.expected.get(`${kind}/${action}`);
    if (own !== undefined) return own;
    const learned = [...this.expected];
    const sameAction = learned.filter(([key]) => key.endsWith(`/${action}`));
    const borrowed = (sameAction.length > 0 ? sameAction : learned).map(([, ms]) => ms);
    return borrowed.length > 0 ? Math.max(...borrowed) : undefined;
  }

  /** An operation of `action` on `kind` was seen ended `elapsedMs` after it was sent, at its first read or after `reads` reads. */
  ended(kind: string, action: string, elapsedMs: number, reads: number): void {
    const learned = reads <= 1 ? elapsedMs * EARLY_END_FACTOR : elapsedMs;
    this.expected.set(`${kind}/${action}`, Math.min(Math.max(learned, 0), MAX_EXPECTED_MS));
  }
}

/** The durations every apply of this process learns from and uses (per process, as Azure's durations are). */
export const PROCESS_OPERATION_DURATIONS = new OperationDurations();
