import { compareText, type SourceRef } from '@fleet-gateway/model';
import type { OperationResult } from './apply.js';
import type { Operation } from './operations.js';

/**
 * The HTTPRoutes a failed write holds back: those its resource serves, and those of every write not attempted
 * because of it (a custom domain serves listeners, but the routes that wait for it name the team whose hostname it is).
 * Empty when the failure holds back only the Gateway's own resources (profile, endpoint): then it is the Gateway's.
 */
export function failureOwners(failed: Operation, results: readonly OperationResult[]): SourceRef[] {
  const resultOf = new Map(results.map((r) => [r.op, r]));
  const rootOf = new Map<Operation, Operation>();
  const root = (op: Operation): Operation => {
    const known = rootOf.get(op);
    if (known) return known;
    const result = resultOf.get(op);
    const found = result?.outcome === 'skipped' && result.blockedBy ? root(result.blockedBy) : op;
    rootOf.set(op, found);
    return found;
  };
  const held = [failed, ...results.filter((r) => r.outcome === 'skipped' && root(r.op) === failed).map((r) => r.op)];
  const routes = new Map<string, SourceRef>();
  for (const source of held.flatMap((op) => op.provenance)) {
    if (source.kind === 'HTTPRoute') routes.set(`${source.namespace}/${source.name}`, { kind: 'HTTPRoute', namespace: source.namespace, name: source.name });
  }
  return [...routes.values()].sort((a, b) => compareText(a.namespace, b.namespace) || compareText(a.name, b.name));
}
