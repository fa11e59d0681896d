import type { Gateway, GatewayListener } from '@fleet-gateway/api-types';
import { hostnamesHeldElsewhere, type HostnameClaim } from './hostname-claims.js';
import { ANY_HOSTNAME } from '../model/model-types.js';
import { isServedListener } from './served-listeners.js';

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
export function listenerConflicts(gateway: Gateway, others: readonly Gateway[]): (string | undefined)[] {
  const counts = new Map<string, number>();
  for (const l of gateway.spec.listeners) counts.set(withinGatewayKey(l), (counts.get(withinGatewayKey(l)) ?? 0) + 1);
  const heldElsewhere = hostnamesHeldElsewhere(gateway, others);
  return gateway.spec.listeners.map((l) => {
    if ((counts.get(withinGatewayKey(l)) ?? 0) > 1) return `another listener uses ${l.protocol} port ${l.port} with hostname ${l.hostname ?? ANY_HOSTNAME}`;
    const holder = l.hostname && isServedListener(l) ? heldElsewhere.get(l.hostname) : undefined;
    return holder && l.hostname ? heldElsewhereMessage(l.hostname, holder) : undefined;
  });
}
