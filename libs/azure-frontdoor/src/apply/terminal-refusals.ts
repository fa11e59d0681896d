import { createHash } from 'node:crypto';
import { refKey } from '../plan/afd-refs.js';
import type { OperationResult } from './apply.js';
import type { ArmFailure, ErrorCategory } from '@fleet-gateway/arm-runtime';
import { canonicalJson } from '../plan/canonical.js';
import type { Operation } from '../diff/operations.js';

export interface TerminalRefusalsOptions {
  /** How long a refused write is not sent again while its body stays the same (default 1 h). */
  readonly recheckMs?: number;
  readonly now?: () => number;
}

interface Refusal {
  readonly failure: ArmFailure;
  readonly at: number;
}

/**
 * Refusals of the body itself. Authorization, a missing parent and quota depend on what is outside the body (a role
 * granted, another write, another team's deletion), so they are sent again as before.
 */
const REMEMBERED = new Set<ErrorCategory>(['validation']);

function writeKey(op: Operation): string {
  const body = createHash('sha256')
    .update(canonicalJson(op.body ?? null))
    .digest('hex');
  return `${op.action}|${refKey(op.ref)}|${body}`;
}

/**
 * The writes of one Gateway that ARM refused terminally for what the body says (a 4xx validation error), by resource
 * and hash of the refused body. Sending the same body again on every resync would be refused again and only spend the subscription's write budget: it is not sent until the desired body
 * changes or `recheckMs` passes (an operator may have changed something on Azure's side meanwhile). Transient
 * failures are never remembered. Lives in the reconciler's process, one per Gateway.
 */
export class TerminalRefusals {
  private readonly refusals = new Map<string, Refusal>();
  private readonly recheckMs: number;
  private readonly now: () => number;

  constructor(options: TerminalRefusalsOptions = {}) {
    this.recheckMs = options.recheckMs ?? 60 * 60_000;
    this.now = options.now ?? Date.now;
  }

  /** ARM's terminal refusal of exactly this write, while it is remembered. */
  recall(op: Operation): ArmFailure | undefined {
    const key = writeKey(op);
    const refusal = this.refusals.get(key);
    if (!refusal) return undefined;
    if (this.now() - refusal.at < this.recheckMs) return refusal.failure;
    this.refusals.delete(key);
    return undefined;
  }

  /**
   * Keeps this apply's terminal refusals (a recalled one keeps the time ARM refused it) and forgets every other: a
   * write not planned this time, or written, or refused with another body, is no longer held by an earlier refusal.
   */
  record(results: readonly OperationResult[]): void {
    const kept = new Map<string, Refusal>();
    for (const r of results) {
      if (r.outcome !== 'failed' || !REMEMBERED.has(r.failure.category)) continue;
      const key = writeKey(r.op);
      kept.set(key, (r.recalled ? this.refusals.get(key) : undefined) ?? { failure: r.failure, at: this.now() });
    }
    this.refusals.clear();
    for (const [key, refusal] of kept) this.refusals.set(key, refusal);
  }

  get size(): number {
    return this.refusals.size;
  }
}
