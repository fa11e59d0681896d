/**
 * The one way a reconciler says what happens next (controller-runtime has two overlapping ways; this has one):
 * - done: converged; the key's backoff is reset.
 * - requeue-after: converged for now but must look again later (polling a cloud operation, a pending approval).
 * - retry: a transient failure; the key comes back after its exponential backoff.
 * - terminal: a failure that retrying cannot fix (invalid input); logged and not retried until the object changes.
 * A thrown error is caught, counted as a panic and retried like `retry`.
 */
export type ReconcileOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'requeue-after'; readonly afterMs: number; readonly reason: string }
  | { readonly kind: 'retry'; readonly error: Error }
  | { readonly kind: 'terminal'; readonly error: Error };

/** Outcome labels as they appear in metrics; `panic` is a thrown error. */
export const outcomeLabels = ['done', 'requeue-after', 'retry', 'terminal', 'panic'] as const;
export type OutcomeLabel = (typeof outcomeLabels)[number];

export const done = (): ReconcileOutcome => ({ kind: 'done' });

export const requeueAfter = (afterMs: number, reason: string): ReconcileOutcome => {
  if (!(afterMs > 0)) throw new Error(`requeueAfter: afterMs must be > 0, got ${afterMs} (reason: ${reason})`);
  return { kind: 'requeue-after', afterMs, reason };
};

export const retry = (error: Error): ReconcileOutcome => ({ kind: 'retry', error });

export const terminal = (error: Error): ReconcileOutcome => ({ kind: 'terminal', error });
