import type { Gateway, HTTPRoute, ParentReference } from '@fleet-gateway/api-types';
import { customDomainHostProblem } from '../model/afd-value-limits.js';
import { intersect, mostSpecificCovering } from '../model/hostnames.js';
import type { InputIndex } from './input-index.js';
import { selectorMatches } from './label-selector.js';
import type { ListenerResult } from './listeners.js';
import { ANY_HOSTNAME } from '../model/model-types.js';
import { GATEWAY_GROUP } from '../model/names.js';

export interface ListenerAttachment {
  readonly listener: ListenerResult;
  /** Effective hostnames: the intersection of listener and route hostnames, after listener isolation. */
  readonly hostnames: readonly string[];
  /** Intersecting hosts that listener isolation gives to a more specific sibling, with that listener's name. */
  readonly isolated: readonly { readonly host: string; readonly listener: string }[];
  /** Intersecting hosts AFD cannot serve as a custom domain (one label, or too long), with why. */
  readonly refused: readonly { readonly host: string; readonly problem: string }[];
}

/** The object a parentRef selects listeners of: the Gateway, or a ListenerSet attached to it, with its listeners. */
export interface ListenerParent {
  readonly kind: 'Gateway' | 'ListenerSet';
  readonly namespace: string;
  readonly name: string;
  readonly listeners: readonly ListenerResult[];
}

/**
 * `counted` are the ids (listenerId) of the listeners the parentRef selects and whose allowedRoutes admit the route: Gateway API counts the
 * route in their attachedRoutes whatever the hostnames, the route's status or the listener's status.
 */
export type ParentAttachment =
  | { readonly ok: true; readonly attachments: readonly ListenerAttachment[]; readonly counted: readonly string[] }
  | { readonly ok: false; readonly reason: string; readonly message: string; readonly counted: readonly string[] };

export function targetsListenerSet(route: HTTPRoute, ref: ParentReference, key: string): boolean {
  return (ref.group ?? GATEWAY_GROUP) === GATEWAY_GROUP && ref.kind === 'ListenerSet' && `${ref.namespace ?? route.metadata.namespace}/${ref.name}` === key;
}

export function targetsGateway(route: HTTPRoute, ref: ParentReference, gateway: Gateway): boolean {
  return (
    (ref.group ?? GATEWAY_GROUP) === GATEWAY_GROUP &&
    (ref.kind ?? 'Gateway') === 'Gateway' &&
    (ref.namespace ?? route.metadata.namespace) === gateway.metadata.namespace &&
    ref.name === gateway.metadata.name
  );
}

/** `Same` is the namespace of the object the listener is written in (a ListenerSet's own, for its listeners). */
function namespaceAllowed(listener: ListenerResult, routeNamespace: string, index: InputIndex): boolean {
  const from = listener.allowedRoutes?.namespaces?.from ?? 'Same';
  if (from === 'All') return true;
  if (from === 'Same') return routeNamespace === listener.owner.namespace;
  const selector = listener.allowedRoutes?.namespaces?.selector;
  const labels = index.namespaceLabels(routeNamespace);
  return !!selector && !!labels && selectorMatches(selector, labels);
}

/** Gateway API hostname intersection: what decides whether the route attaches to the listener. */
function intersectingHostnames(listener: ListenerResult, routeHostnames: readonly string[]): string[] {
  const wanted = routeHostnames.length === 0 ? [listener.hostname] : routeHostnames;
  return [...new Set(wanted.flatMap((h) => intersect(listener.hostname, h) ?? []))];
}

/**
 * Listener isolation: a host belongs to the most specific listener of the same protocol and port, so an attached
 * route may serve no host through a listener whose hosts a more specific sibling takes.
 */
function isolate(listener: ListenerResult, routeHostnames: readonly string[], siblings: readonly ListenerResult[]): ListenerAttachment {
  // The Gateway's and its ListenerSets' listeners are one list: isolation is judged across all of them.
  const peers = siblings.filter((s) => s.protocol === listener.protocol && s.port === listener.port);
  const hostnames: string[] = [];
  const isolated: { host: string; listener: string }[] = [];
  const refused: { host: string; problem: string }[] = [];
  for (const host of intersectingHostnames(listener, routeHostnames)) {
    const owner = mostSpecificCovering(
      peers.map((p) => p.hostname),
      host,
    );
    // Every hostname but `*` becomes a custom domain with an AFD-managed certificate: one AFD refuses stays out.
    const problem = host === ANY_HOSTNAME ? undefined : customDomainHostProblem(host);
    if (owner !== listener.hostname) isolated.push({ host, listener: peers.find((p) => p.hostname === owner)?.name ?? '' });
    else if (problem) refused.push({ host, problem });
    else hostnames.push(host);
  }
  return { listener, hostnames, isolated, refused };
}

/**
 * Gateway API attachment of one parentRef: sectionName/port among the parent's listeners, then allowedRoutes, then
 * hostname intersection; listener isolation among `siblings`, every listener of the Gateway and its ListenerSets.
 */
export function attachParentRef(
  route: HTTPRoute,
  ref: ParentReference,
  parent: ListenerParent,
  siblings: readonly ListenerResult[],
  index: InputIndex,
): ParentAttachment {
  const matching = parent.listeners.filter(
    (l) => (ref.sectionName === undefined || l.name === ref.sectionName) && (ref.port === undefined || l.port === ref.port),
  );
  const where = [ref.sectionName && `sectionName ${ref.sectionName}`, ref.port !== undefined && `port ${ref.port}`].filter(Boolean).join(' and ');
  if (matching.length === 0) {
    return { ok: false, reason: 'NoMatchingParent', message: `no listener of ${parent.kind} ${parent.name} matches ${where}`, counted: [] };
  }
  const routeNamespace = route.metadata.namespace ?? '';
  const takesRoutes = (l: ListenerResult) => l.supportedKinds.some((k) => k.kind === 'HTTPRoute');
  const allowed = matching.filter((l) => takesRoutes(l) && namespaceAllowed(l, routeNamespace, index));
  if (allowed.length === 0) {
    // Each listener's own cause: an invalid listener says so, rather than seeming to refuse the namespace.
    const refusing = matching.filter(takesRoutes).map((l) => l.name);
    const why = [
      ...(refusing.length > 0 ? [`listeners ${refusing.join(', ')} do not allow HTTPRoutes from namespace ${routeNamespace}`] : []),
      ...matching
        .filter((l) => !takesRoutes(l))
        .map((l) => `listener ${l.name} takes no HTTPRoutes: it is not valid (${l.problem ?? 'no supported route kind'})`),
    ];
    return { ok: false, reason: 'NotAllowedByListeners', message: why.join('; '), counted: [] };
  }
  const counted = allowed.map((l) => l.id);
  const routeHostnames = [...new Set(route.spec.hostnames ?? [])];
  const intersecting = allowed.filter((listener) => intersectingHostnames(listener, routeHostnames).length > 0);
  const attachments = intersecting.map((listener) => isolate(listener, routeHostnames, siblings));
  if (attachments.length === 0) {
    const listenerHosts = allowed.map((l) => `${l.name} (${l.hostname === ANY_HOSTNAME ? 'any host' : l.hostname})`);
    return {
      ok: false,
      reason: 'NoMatchingListenerHostname',
      message: `route hostnames ${routeHostnames.join(', ')} match no hostname of listeners ${listenerHosts.join(', ')}`,
      counted,
    };
  }
  return { ok: true, attachments, counted };
}
