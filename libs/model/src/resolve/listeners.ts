import { parseListenerTlsOptions, RESERVED_PREFIX, formatAnnotationErrors, type ListenerTlsConfig } from '@fleet-gateway/annotations';
import type { Gateway, GatewayListener } from '@fleet-gateway/api-types';
import { conditionsFor, joinMessages } from '../verdicts/conditions.js';
import { ANY_HOSTNAME, type ModelListener } from '../model/model-types.js';
import type { ListenerSetListener } from './hostname-claims.js';
import { listenerConflicts } from './listener-conflicts.js';
import { listenerId, type ListenerOwner } from './listener-owner.js';
import { GATEWAY_GROUP } from '../model/names.js';
import { isServedProtocol, SERVED_PORTS } from './served-listeners.js';
import type { VerdictCondition } from '../verdicts/verdict-types.js';
import { managedCertificateHostProblem } from '../model/afd-value-limits.js';

const CERTIFICATE_OPTION = `${RESERVED_PREFIX}certificate`;

export interface RouteKind {
  readonly group: string;
  readonly kind: string;
}

/** A listener as resolve sees it: its verdict (before attachment counts) and, when routable, its model node. */
export interface ListenerResult {
  /** The name as written (what a parentRef's sectionName selects and status reports). */
  readonly name: string;
  /** Unique among the Gateway's merged listeners: the model listener's name (listenerId). */
  readonly id: string;
  readonly owner: ListenerOwner;
  readonly port: number;
  readonly hostname: string;
  readonly protocol: string;
  readonly allowedRoutes: GatewayListener['allowedRoutes'];
  readonly supportedKinds: readonly RouteKind[];
  readonly conditions: readonly VerdictCondition[];
  /** Why the listener is not routable, for the Gateway's message; absent when it is. */
  readonly problem?: string;
  readonly model?: ModelListener;
}

function routeKinds(listener: GatewayListener): { supported: RouteKind[]; invalid: string[] } {
  const served = isServedProtocol(listener.protocol);
  const requested = listener.allowedRoutes?.kinds ?? [];
  if (requested.length === 0) return { supported: served ? [{ group: GATEWAY_GROUP, kind: 'HTTPRoute' }] : [], invalid: [] };
  const supported: RouteKind[] = [];
  const invalid: string[] = [];
  for (const { group = GATEWAY_GROUP, kind } of requested) {
    if (served && group === GATEWAY_GROUP && kind === 'HTTPRoute') {
      if (supported.length === 0) supported.push({ group, kind });
    } else {
      invalid.push(`${group}/${kind}`);
    }
  }
  return { supported, invalid };
}

interface Problem {
  readonly reason: string;
  readonly message: string;
}

/** Everything that keeps the listener from being accepted, most fundamental first; all are reported together. */
function acceptanceProblems(listener: GatewayListener, conflict: string | undefined, tls: ReturnType<typeof parseListenerTlsOptions> | undefined): Problem[] {
  const { protocol, port } = listener;
  const problems: Problem[] = [];
  if (!isServedProtocol(protocol)) {
    problems.push({ reason: 'UnsupportedProtocol', message: `protocol ${protocol} is not supported; AFD serves HTTP and HTTPS` });
  } else if (port !== SERVED_PORTS[protocol]) {
    problems.push({ reason: 'PortUnavailable', message: `${protocol} is served on port ${SERVED_PORTS[protocol]} only, not ${port}` });
  }
  if (conflict) problems.push({ reason: 'HostnameConflict', message: conflict });
  if (tls && !tls.ok) problems.push({ reason: tls.errors[0]?.reason ?? 'Invalid', message: formatAnnotationErrors(tls.errors) });
  return problems;
}

/** Judged whatever else is wrong with the listener; with invalid tls.options only certificateRefs can be judged. */
function certificateProblem(listener: GatewayListener, tls: ListenerTlsConfig | undefined): string | undefined {
  if ((listener.tls?.certificateRefs ?? []).length > 0) {
    return `certificateRefs are not supported; use tls.options ${CERTIFICATE_OPTION}: managed`;
  }
  if (!tls) return undefined;
  if (tls.certificate === undefined) return `an HTTPS listener needs tls.options ${CERTIFICATE_OPTION}: managed`;
  // AFD issues managed certificates for wildcard domains too, but for host names of at most 64 characters.
  return listener.hostname === undefined ? undefined : managedCertificateHostProblem(listener.hostname);
}

/** One listener of the Gateway or of a ListenerSet attached to it, judged the same way wherever it is written. */
export function resolveListener(owner: ListenerOwner, listener: GatewayListener, conflict: string | undefined): ListenerResult {
  const { isTrue, isFalse } = conditionsFor(owner.generation);
  const https = listener.protocol === 'HTTPS';
  const tls = https ? parseListenerTlsOptions(listener.tls?.options) : undefined;
  const problems = acceptanceProblems(listener, conflict, tls);
  const [firstProblem] = problems;
  const rejected = firstProblem && { reason: firstProblem.reason, message: joinMessages(problems.map((p) => p.message)) };
  const kinds = routeKinds(listener);
  const certificate = https ? certificateProblem(listener, tls?.ok ? tls.config : undefined) : undefined;
  const kindsProblem = kinds.invalid.length > 0 ? `unsupported route kinds ${kinds.invalid.join(', ')}; only gateway.networking.k8s.io/HTTPRoute` : undefined;

  const conditions: VerdictCondition[] = [
    rejected ? isFalse('Accepted', rejected.reason, rejected.message) : isTrue('Accepted', 'Accepted', 'listener is valid'),
    conflict ? isTrue('Conflicted', 'HostnameConflict', conflict) : isFalse('Conflicted', 'NoConflicts', 'no conflicting listener'),
  ];
  if (kindsProblem) conditions.push(isFalse('ResolvedRefs', 'InvalidRouteKinds', joinMessages([kindsProblem, certificate])));
  else if (certificate) conditions.push(isFalse('ResolvedRefs', 'InvalidCertificateRef', certificate));
  else conditions.push(isTrue('ResolvedRefs', 'ResolvedRefs', 'references resolved'));

  // Unsupported kinds beside a supported one leave the listener serving HTTPRoutes (the spec lists the valid kinds).
  const noKinds = kinds.supported.length === 0 ? kindsProblem : undefined;
  const problem = joinMessages([rejected?.message, noKinds, certificate]) || undefined;
  // A conflicted listener says so on Programmed too (as Gateway API's conformance tests for ListenerSets expect).
  if (problem) conditions.push(isFalse('Programmed', conflict ? 'HostnameConflict' : 'Invalid', problem));
  const id = listenerId(owner, listener.name);
  const base = {
    name: listener.name,
    id,
    owner,
    port: listener.port,
    hostname: listener.hostname ?? ANY_HOSTNAME,
    protocol: listener.protocol,
    allowedRoutes: listener.allowedRoutes,
    supportedKinds: kinds.supported,
    conditions,
  };
  // A served protocol is implied when there is no problem; the check narrows the type.
  if (problem || !isServedProtocol(listener.protocol)) return { ...base, problem: problem ?? listener.protocol };
  const model: ModelListener = {
    name: id,
    protocol: listener.protocol,
    port: listener.port,
    hostname: base.hostname,
    ...(tls?.ok && tls.config.certificate ? { tls: { certificate: tls.config.certificate, minimumTlsVersion: tls.config.minimumTlsVersion } } : {}),
    source: { kind: owner.kind, namespace: owner.namespace, name: owner.name, section: listener.name },
  };
  return { ...base, model };
}

/**
 * Validates every listener against what AFD can serve. Conflicts are judged among all listeners as written, and
 * against the listener hostnames of the hub's other Gateways of this controller (and of their ListenerSets').
 */
export function resolveListeners(gateway: Gateway, otherGateways: readonly Gateway[] = [], otherSets: readonly ListenerSetListener[] = []): ListenerResult[] {
  const conflicts = listenerConflicts(gateway, otherGateways, otherSets);
  const owner = gatewayOwner(gateway);
  return gateway.spec.listeners.map((l, i) => resolveListener(owner, l, conflicts[i]));
}

export function gatewayOwner(gateway: Gateway): ListenerOwner {
  return { kind: 'Gateway', namespace: gateway.metadata.namespace ?? '', name: gateway.metadata.name ?? '', generation: gateway.metadata.generation ?? 0 };
}
