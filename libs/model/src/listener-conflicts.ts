import type { Gateway, GatewayListener } from '@fleet-gateway/api-types';
import { ANY_HOSTNAME } from './model-types.js';
import { compareText, namespacedName } from './names.js';
import { isServedListener } from './served-listeners.js';

function gatewayName(gateway: Gateway): string {
  return namespacedName(gateway.metadata.namespace ?? '', gateway.metadata.name ?? '');
}

/** Gateway API's tie-break for competing objects: the oldest first, then namespace/name. */
function comparePrecedence(a: Gateway, b: Gateway): number {
  return compareText(a.metadata.creationTimestamp ?? '\uffff', b.metadata.creationTimestamp ?? '\uffff') || compareText(gatewayName(a), gatewayName(b));
}

function withinGatewayKey(l: GatewayListener): string {
  return `${l.protocol}|${l.port}|${l.hostname ?? ANY_HOSTNAME}`;
}

/**
 * Hostnames that Gateways ahead of this one already serve, with who serves them. Whether the earlier Gateway is
 * itself valid does not matter: a domain must never move between profiles because another Gateway's validity
 * changed.
 */
function claimedHostnames(gateway: Gateway, others: readonly Gateway[]): Map<string, string> {
  const self = gatewayName(gateway);
  const claims = new Map<string, string>();
  const earlier = others.filter((o) => gatewayName(o) !== self && comparePrecedence(o, gateway) < 0).sort(comparePrecedence);
  for (const other of earlier) {
    for (const l of other.spec.listeners) {
      if (l.hostname && isServedListener(l) && !claims.has(l.hostname)) claims.set(l.hostname, `listener ${l.name} of Gateway ${gatewayName(other)}`);
    }
  }
  return claims;
}

/**
 * Why each listener of the Gateway conflicts, in listener order (undefined: no conflict). Within the Gateway: the
 * same protocol, port and hostname (the API server refuses this; kept for input that bypasses it). Across Gateways of
 * this controller: a hostname that an older Gateway already serves, since AFD serves a custom domain from one
 * profile only.
 */
export function listenerConflicts(gateway: Gateway, others: readonly Gateway[]): (string | undefined)[] {
  const counts = new Map<string, number>();
  for (const l of gateway.spec.listeners) counts.set(withinGatewayKey(l), (counts.get(withinGatewayKey(l)) ?? 0) + 1);
  const claims = claimedHostnames(gateway, others);
  return gateway.spec.listeners.map((l) => {
    if ((counts.get(withinGatewayKey(l)) ?? 0) > 1) return `another listener uses ${l.protocol} port ${l.port} with hostname ${l.hostname ?? ANY_HOSTNAME}`;
    const claim = l.hostname && isServedListener(l) ? claims.get(l.hostname) : undefined;
    if (claim) return `hostname ${l.hostname} is already served by ${claim}, which is older; AFD serves a custom domain from one profile only`;
    return undefined;
  });
}
