/** How long one ARM write and its long-running operation are followed before the caller moves on. */
const DEFAULT_OPERATION_DEADLINE_MS = 10 * 60_000;

export interface OperationDeadline {
  /** The caller's signal, ended also when the deadline passes: give it to the writes and to `followOperations`. */
  readonly signal: AbortSignal;
  readonly deadlineMs: number;
  /** The deadline, not the caller, ended the operation: ARM may still finish it, so it is neither done nor failed. */
  expired(): boolean;
}

/** Bounds following long-running operations, which would otherwise last as long as ARM says they run. */
export function operationDeadline(caller: AbortSignal | undefined, deadlineMs = DEFAULT_OPERATION_DEADLINE_MS): OperationDeadline {
  const deadline = AbortSignal.timeout(deadlineMs);
  return {
    signal: caller ? AbortSignal.any([caller, deadline]) : deadline,
    deadlineMs,
    expired: () => deadline.aborted && !caller?.aborted,
  };
}
