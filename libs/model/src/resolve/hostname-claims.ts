import type { Gateway, GatewayListener, ListenerSet } from '@fleet-gateway/api-types';
import { listenerId, listenerSetOwner, listenerSetParent } from './listener-owner.js';
import { namespacedName } from '../model/names.js';
import { compareText } from '@fleet-gateway/api-types';
import { isServedListener } from './served-listeners.js';

/**
 * How firmly a Gateway holds a hostname, from the listener status this controller wrote on it: `held` at its current
 * generation, `held-before` at an earlier one (its spec changed since and it has not been reconciled yet), `claimed`
 * when its status does not say it holds the hostname (new, or it lost it).
 */
export type ClaimStanding = 'held' | 'held-before' | 'claimed';

/** One Gateway's claim on one listener hostname: the AFD custom domain its profile would hold. */
export interface HostnameClaim {
  readonly hostname: string;
  /** `<namespace>/<name>` of the Gateway. */
  readonly gateway: string;
  /** The served listeners of the Gateway with this hostname. */
  readonly listeners: readonly string[];
  readonly createdAt?: string;
  readonly standing: ClaimStanding;
}

const STANDING_RANK: Readonly<Record<ClaimStanding, number>> = { held: 0, 'held-before': 1, claimed: 2 };

/**
 * The key under which every hostname a claim on `hostname` can contest is found: AFD keeps a wildcard domain and its
 * first-level subdomains in one profile, so `*.contoso.com` and `a.contoso.com` share the key `*.contoso.com`.
 */
export function hostnameClaimKey(hostname: string): string {
  const lower = hostname.toLowerCase();
  const dot = lower.indexOf('.');
  return dot < 0 ? lower : `*${lower.slice(dot)}`;
}

/** Whether two hostnames cannot be custom domains of two different AFD profiles. */
export function hostnamesContest(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x === y) return true;
  const wildcard = x.startsWith('*.') ? x : y.startsWith('*.') ? y : undefined;
  const other = wildcard === x ? y : x;
  return wildcard !== undefined && !other.startsWith('*.') && hostnameClaimKey(other) === wildcard;
}

type ListenerStatuses = NonNullable<NonNullable<Gateway['status']>['listeners']>;

/** How firmly the listeners `names` of an object of `generation` hold their hostname, from the status we wrote on it. */
function standingIn(statuses: ListenerStatuses | undefined, generation: number, names: readonly string[]): ClaimStanding {
  const holding = (statuses ?? [])
    .filter((s) => names.includes(s.name))
    .flatMap((s) => s.conditions.filter((c) => c.type === 'Conflicted' && c.status === 'False'));
  if (holding.length === 0) return 'claimed';
  return holding.some((c) => (c.observedGeneration ?? 0) === generation) ? 'held' : 'held-before';
}

function standingOf(gateway: Gateway, listeners: readonly string[]): ClaimStanding {
  return standingIn(gateway.status?.listeners, gateway.metadata.generation ?? 0, listeners);
}

/** The Gateway's claims, one per hostname of its served listeners (a listener without a hostname claims nothing). */
export function claimsOf(gateway: Gateway): HostnameClaim[] {
  const byHostname = new Map<string, string[]>();
  for (const l of gateway.spec.listeners) {
    if (l.hostname && isServedListener(l)) byHostname.set(l.hostname, [...(byHostname.get(l.hostname) ?? []), l.name]);
  }
  const name = namespacedName(gateway.metadata.namespace ?? '', gateway.metadata.name ?? '');
  const createdAt = gateway.metadata.creationTimestamp;
  return [...byHostname].map(([hostname, listeners]) => ({
    hostname,
    gateway: name,
    listeners,
    ...(createdAt ? { createdAt } : {}),
    standing: standingOf(gateway, listeners),
  }));
}

/** A listener of a ListenerSet attached to a Gateway: its hostname is a custom domain of that Gateway's profile. */
export interface ListenerSetListener {
  readonly set: ListenerSet;
  readonly listener: GatewayListener;
}

/**
 * The Gateway's claims through its ListenerSets' listeners, one per listener with a hostname, each standing as the
 * ListenerSet's own listener status says (it is written there, not on the Gateway).
 */
export function listenerSetClaimsOf(gateway: Gateway, listeners: readonly ListenerSetListener[]): HostnameClaim[] {
  const name = namespacedName(gateway.metadata.namespace ?? '', gateway.metadata.name ?? '');
  const createdAt = gateway.metadata.creationTimestamp;
  return listeners.flatMap(({ set, listener }) => {
    if (!listener.hostname || !isServedListener(listener)) return [];
    return [
      {
        hostname: listener.hostname,
        gateway: name,
        listeners: [listenerId(listenerSetOwner(set), listener.name)],
        ...(createdAt ? { createdAt } : {}),
        standing: standingIn(set.status?.listeners as ListenerStatuses | undefined, set.metadata.generation ?? 0, [listener.name]),
      },
    ];
  });
}

/**
 * Precedence among claims: one the hub already acts on first (a holder is never displaced by a newcomer, whatever its
 * age), then the oldest Gateway (one without a creation time counts as the newest), then namespace/name.
 */
function comparePrecedence(a: HostnameClaim, b: HostnameClaim): number {
  return (
    STANDING_RANK[a.standing] - STANDING_RANK[b.standing] ||
    compareText(a.createdAt ?? '\uffff', b.createdAt ?? '\uffff') ||
    compareText(a.gateway, b.gateway) ||
    compareText(a.hostname, b.hostname)
  );
}

/**
 * Who holds each claim's hostname: claims in precedence order, each held unless a claim of another Gateway that
 * contests it is held already. The result maps each losing claim to the holder it lost to; the others hold. It does
 * not depend on the order of `claims`, and a loser never blocks anyone.
 */
export function decideHostnameClaims(claims: readonly HostnameClaim[]): Map<HostnameClaim, HostnameClaim> {
  const exact = new Map<string, HostnameClaim>();
  /** Per wildcard key: the held wildcard domain, and the held first-level subdomains. */
  const wildcards = new Map<string, HostnameClaim>();
  const subdomains = new Map<string, HostnameClaim[]>();
  const lostTo = new Map<HostnameClaim, HostnameClaim>();
  for (const claim of [...claims].sort(comparePrecedence)) {
    const hostname = claim.hostname.toLowerCase();
    const key = hostnameClaimKey(hostname);
    const isWildcard = hostname.startsWith('*.');
    const rivals = [exact.get(hostname), ...(isWildcard ? (subdomains.get(key) ?? []) : [wildcards.get(key)])];
    const holder = rivals.find((r) => r !== undefined && r.gateway !== claim.gateway);
    if (holder) {
      lostTo.set(claim, holder);
      continue;
    }
    if (!exact.has(hostname)) exact.set(hostname, claim);
    if (isWildcard) {
      if (!wildcards.has(key)) wildcards.set(key, claim);
    } else {
      subdomains.set(key, [...(subdomains.get(key) ?? []), claim]);
    }
  }
  return lostTo;
}

/** The listeners of ListenerSets besides a Gateway's own that claim hostnames for it. */
export interface ListenerSetClaims {
  /** The Gateway's own ListenerSet listeners to judge (admitted, and valid otherwise). */
  readonly own?: readonly ListenerSetListener[];
  /**
   * The other Gateways' ListenerSet listeners: only those their Gateway's reconcile has judged holding their hostname
   * (their status says so) count, since whether a ListenerSet is admitted is that Gateway's to decide.
   */
  readonly others?: readonly ListenerSetListener[];
}

/**
 * The hostnames of `gateway` (its own listeners', and `sets.own`) that another Gateway of this controller holds, with
 * that holder: AFD serves a custom domain from one profile only, and every Gateway has its own profile.
 */
export function hostnamesHeldElsewhere(gateway: Gateway, others: readonly Gateway[], sets: ListenerSetClaims = {}): Map<string, HostnameClaim> {
  const self = namespacedName(gateway.metadata.namespace ?? '', gateway.metadata.name ?? '');
  const own = [...claimsOf(gateway), ...listenerSetClaimsOf(gateway, sets.own ?? [])];
  if (own.length === 0) return new Map();
  const rivals = others.flatMap((o) => {
    const key = namespacedName(o.metadata.namespace ?? '', o.metadata.name ?? '');
    if (key === self) return [];
    const throughSets = (sets.others ?? []).filter(({ set }) => listenerSetParent(set) === key);
    return [...claimsOf(o), ...listenerSetClaimsOf(o, throughSets).filter((c) => c.standing !== 'claimed')];
  });
  const lostTo = decideHostnameClaims([...own, ...rivals]);
  return new Map(own.flatMap((c) => (lostTo.has(c) ? [[c.hostname, lostTo.get(c) as HostnameClaim] as const] : [])));
}
