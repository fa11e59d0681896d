import { compareText, type Gateway, type ListenerSet } from '@fleet-gateway/api-types';
import { namespacedName } from '../model/names.js';
import type { InputIndex } from './input-index.js';
import { selectorMatches } from './label-selector.js';
import type { ListenerSetListener } from './hostname-claims.js';
import { listenerSetConflicts } from './listener-conflicts.js';
import { listenerSetOwner, listenerSetParent, type ListenerOwner } from './listener-owner.js';
import { resolveListener, type ListenerResult } from './listeners.js';

/** One ListenerSet naming the Gateway as its parent, as resolve sees it. */
export interface ListenerSetResolution {
  readonly set: ListenerSet;
  /** `<namespace>/<name>` of the ListenerSet. */
  readonly key: string;
  readonly owner: ListenerOwner;
  /** Why the Gateway's allowedListeners does not admit it; absent when admitted. */
  readonly notAllowed?: string;
  /** Its listeners, judged as part of the Gateway's merged list; empty when not admitted. */
  readonly listeners: readonly ListenerResult[];
}

/** Why the Gateway's `spec.allowedListeners` does not admit the ListenerSet; undefined when it does. */
function notAllowedBy(gateway: Gateway, set: ListenerSet, index: InputIndex): string | undefined {
  const namespaces = gateway.spec.allowedListeners?.namespaces;
  const from = namespaces?.from ?? 'None';
  const namespace = set.metadata.namespace ?? '';
  const where = `Gateway ${namespacedName(gateway.metadata.namespace ?? '', gateway.metadata.name ?? '')}`;
  switch (from) {
    case 'All':
      return undefined;
    case 'Same':
      return namespace === gateway.metadata.namespace
        ? undefined
        : `${where} admits ListenerSets from its own namespace only (spec.allowedListeners.namespaces.from: Same), not from namespace ${namespace}`;
    case 'Selector': {
      const labels = index.namespaceLabels(namespace);
      return namespaces?.selector && labels && selectorMatches(namespaces.selector, labels)
        ? undefined
        : `${where} admits ListenerSets from the namespaces its spec.allowedListeners.namespaces.selector selects, and namespace ${namespace} is not one of them`;
    }
    default:
      return `${where} admits no ListenerSets (spec.allowedListeners.namespaces.from is ${from}; the default is None)`;
  }
}

/** The spec's precedence among ListenerSets: the oldest first (one without a creation time last), then namespace/name. */
function comparePrecedence(a: ListenerSet, b: ListenerSet): number {
  const key = (s: ListenerSet) => namespacedName(s.metadata.namespace ?? '', s.metadata.name ?? '');
  return compareText(a.metadata.creationTimestamp ?? '\uffff', b.metadata.creationTimestamp ?? '\uffff') || compareText(key(a), key(b));
}

/**
 * The ListenerSets naming the Gateway, in the spec's precedence order, each admitted or not by its allowedListeners,
 * with the listeners of those admitted judged as the tail of the Gateway's merged listener list (listenerSetConflicts):
 * a ListenerSet in conflict never changes the Gateway's listeners or an earlier ListenerSet's, and a listener in error
 * changes no other listener at all (`gatewayListeners` are the Gateway's own, as resolveListeners judged them).
 */
export function resolveListenerSets(
  gateway: Gateway,
  gatewayListeners: readonly ListenerResult[],
  sets: readonly ListenerSet[],
  others: readonly Gateway[],
  otherSets: readonly ListenerSetListener[],
  index: InputIndex,
): ListenerSetResolution[] {
  const gatewayKey = namespacedName(gateway.metadata.namespace ?? '', gateway.metadata.name ?? '');
  const ours = sets.filter((s) => listenerSetParent(s) === gatewayKey).sort(comparePrecedence);
  const judged = ours.map((set) => ({ set, owner: listenerSetOwner(set), notAllowed: notAllowedBy(gateway, set, index) }));
  const merged = judged.flatMap(({ set, notAllowed }) => (notAllowed ? [] : set.spec.listeners.map((listener) => ({ set, listener }))));
  // A listener in error takes no place in the merged list: it cannot conflict a later team's listener out.
  const alone = merged.map((m) => resolveListener(listenerSetOwner(m.set), m.listener, undefined));
  const contenders = merged.filter((_, i) => !alone[i]?.problem);
  // The Gateway's listeners in error hold no place either.
  const held = gateway.spec.listeners.filter((_, i) => !gatewayListeners[i]?.problem);
  const conflicts = new Map(listenerSetConflicts(gateway, held, contenders, others, otherSets).map((c, i) => [contenders[i], c]));
  const results = new Map(
    merged.map((m, i) => {
      const conflict = conflicts.get(m);
      return [m.listener, conflict ? resolveListener(listenerSetOwner(m.set), m.listener, conflict) : alone[i]];
    }),
  );
  return judged.map(({ set, owner, notAllowed }) => ({
    set,
    key: namespacedName(owner.namespace, owner.name),
    owner,
    ...(notAllowed ? { notAllowed } : {}),
    listeners: notAllowed ? [] : set.spec.listeners.flatMap((l) => results.get(l) ?? []),
  }));
}
