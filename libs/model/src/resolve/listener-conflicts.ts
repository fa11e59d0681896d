import type { Gateway, GatewayListener } from '@fleet-gateway/api-types';
import { hostnamesHeldElsewhere, type HostnameClaim, type ListenerSetListener } from './hostname-claims.js';
import { ANY_HOSTNAME } from '../model/model-types.js';
import { isServedListener } from './served-listeners.js';
import { namespacedName } from '../model/names.js';

function withinGatewayKey(l: GatewayListener): string {
  return `${l.protocol}|${l.port}|${l.hostname ?? ANY_HOSTNAME}`;
}

function heldElsewhereMessage(hostname: string, holder: HostnameClaim): string {
  const by = `Gateway ${holder.gateway} (listener ${holder.listeners.join(', ')})`;
  if (holder.hostname.toLowerCase() === hostname.toLowerCase()) {
    return `hostname ${hostname} is held by ${by}, which claimed it first; AFD serves a custom domain from one profile only, so this listener gets it when that Gateway lets it go`;
  }
  return `hostname ${hostname} overlaps ${holder.hostname}, held by ${by}, which claimed it first; AFD keeps a wildcard domain and its first-level subdomains in one profile, so this listener gets it when that Gateway lets go`;
}

/**
 * Why each listener of the Gateway conflicts, in listener order (undefined: no conflict). Within the Gateway: the
 * same protocol, port and hostname (the API server refuses this; kept for input that bypasses it). Across Gateways of
 * this controller: a hostname another Gateway holds (hostname-claims.ts), since AFD serves a custom domain from one
 * profile only.
 */
export function listenerConflicts(gateway: Gateway, others: readonly Gateway[], otherSets: readonly ListenerSetListener[] = []): (string | undefined)[] {
  const counts = new Map<string, number>();
  for (const l of gateway.spec.listeners) counts.set(withinGatewayKey(l), (counts.get(withinGatewayKey(l)) ?? 0) + 1);
  const heldElsewhere = hostnamesHeldElsewhere(gateway, others, { others: otherSets });
  return gateway.spec.listeners.map((l) => {
    if ((counts.get(withinGatewayKey(l)) ?? 0) > 1) return `another listener uses ${l.protocol} port ${l.port} with hostname ${l.hostname ?? ANY_HOSTNAME}`;
    const holder = l.hostname && isServedListener(l) ? heldElsewhere.get(l.hostname) : undefined;
    return holder && l.hostname ? heldElsewhereMessage(l.hostname, holder) : undefined;
  });
}

function sameHostname(a: GatewayListener, b: GatewayListener): boolean {
  return (a.hostname ?? ANY_HOSTNAME).toLowerCase() === (b.hostname ?? ANY_HOSTNAME).toLowerCase();
}

/** Names the earlier listener's object without its details: it may belong to another team. */
function earlierOwner(earlier: ListenerSetListener | GatewayListener, gateway: string): string {
  return 'set' in earlier ? `a listener of an earlier ListenerSet attached to Gateway ${gateway}` : `a listener of Gateway ${gateway}`;
}

/**
 * Why each ListenerSet listener conflicts (HostnameConflict; undefined: no conflict), in the order given. The Gateway's listeners and
 * the attached ListenerSets' form one list, the Gateway's first, then the ListenerSets oldest first, then by
 * namespace/name (`listeners` is in that order, after `gatewayListeners`): a listener conflicts with an earlier one of
 * the same protocol, port and hostname (HostnameConflict, as Gateway API's conformance tests expect, not GEP-1713's
 * ListenerConflict); the earlier keeps its place, and a conflicted listener takes
 * nothing from the ones after it. A hostname another Gateway of this controller holds conflicts as it does for the
 * Gateway's own listeners. Only listeners that are valid otherwise are given, so the Gateway's and
 * AFD's fixed port per protocol leave no protocol conflict to judge. The Gateway's own listeners are judged without
 * the ListenerSets (listenerConflicts): no ListenerSet can take anything from them.
 */
export function listenerSetConflicts(
  gateway: Gateway,
  gatewayListeners: readonly GatewayListener[],
  listeners: readonly ListenerSetListener[],
  others: readonly Gateway[],
  otherSets: readonly ListenerSetListener[],
): (string | undefined)[] {
  const gatewayKey = namespacedName(gateway.metadata.namespace ?? '', gateway.metadata.name ?? '');
  const kept: (ListenerSetListener | GatewayListener)[] = [...gatewayListeners];
  const listenerOf = (k: ListenerSetListener | GatewayListener) => ('set' in k ? k.listener : k);
  // Held elsewhere: the ListenerSets' hostnames would be custom domains of this Gateway's profile.
  const heldElsewhere = hostnamesHeldElsewhere(gateway, others, { own: listeners, others: otherSets });
  return listeners.map((m) => {
    const l = m.listener;
    const earlier = kept.find((k) => listenerOf(k).port === l.port && listenerOf(k).protocol === l.protocol && sameHostname(listenerOf(k), l));
    const holder = l.hostname && isServedListener(l) ? heldElsewhere.get(l.hostname) : undefined;
    const conflict = earlier
      ? `${earlierOwner(earlier, gatewayKey)} uses ${l.protocol} port ${l.port} with hostname ${l.hostname ?? ANY_HOSTNAME}; the earlier listener keeps it (the Gateway's own first, then ListenerSets oldest first)`
      : holder && l.hostname
        ? heldElsewhereMessage(l.hostname, holder)
        : undefined;
    if (!conflict) kept.push(m);
    return conflict;
  });
}
