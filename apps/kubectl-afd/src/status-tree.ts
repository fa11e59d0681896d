import { privateLinkApprovalCommand } from '@fleet-gateway/azure-frontdoor';
import { AZURE_PROGRAMMED_CONDITION } from '@fleet-gateway/gateway-controllers';
import {
  CONTROLLER_NAME,
  type GlobalGateway,
  type HubInputs,
  type ModelOrigin,
  type ModelRule,
  type ResolveResult,
  type SplitEntry,
} from '@fleet-gateway/model';
import type { Condition, HTTPRoute } from '@fleet-gateway/api-types';
import type { AfdResource } from './afd-resources.js';

/**
 * What one node of the tree is doing: `ok` serving as written; `pending` on its way (Azure provisioning or deploying,
 * an approval); `held` serving an earlier configuration; `refused` not served, with why; `disabled` taken out on
 * purpose (weight 0); `unknown` no word from the hub or the member yet. AFD resources read from Azure may also be
 * `missing` (planned, absent from Azure) or `extra` (in the Gateway's profile, not planned).
 */
export type NodeState = 'ok' | 'pending' | 'held' | 'refused' | 'disabled' | 'unknown' | 'missing' | 'extra';

/** `AFD`: one Azure Front Door resource as read from ARM (its name says its kind: `route rt-web-0-…`). */
export type NodeKind = 'Gateway' | 'Listener' | 'HTTPRoute' | 'Rule' | 'Backend' | 'Origin' | 'AFD';

export interface StatusNode {
  readonly kind: NodeKind;
  readonly name: string;
  readonly state: NodeState;
  /** One line on what it is (protocol, match, weight share, address). */
  readonly summary: string;
  /** Why it is not `ok`, in the hub's words, with what to do when there is something to do. */
  readonly reasons: readonly string[];
  /** The conditions the hub wrote on the object (Kubernetes objects only). */
  readonly conditions?: readonly Condition[];
  /** AFD resources only: ARM's fields as read, and the write the hub would send. */
  readonly azure?: Pick<AfdResource, 'presence' | 'provisioningState' | 'deploymentStatus' | 'write'>;
  readonly children: readonly StatusNode[];
}

/** Gateway API's conditions of abnormal-true polarity: False is their good state. */
const ABNORMAL_TRUE = new Set(['Conflicted']);

const HELD = /^serves the configuration accepted at generation \d+;/;

/**
 * A node's state from the conditions the hub wrote: none yet is unknown; any condition not in its good state (True,
 * or False for Conflicted) says what is wrong.
 */
export function stateOfConditions(conditions: readonly Condition[] | undefined): { state: NodeState; reasons: string[] } {
  if (!conditions || conditions.length === 0) return { state: 'unknown', reasons: ['no status from the hub yet'] };
  const notTrue = conditions.filter((c) => c.status !== (ABNORMAL_TRUE.has(c.type) ? 'False' : 'True'));
  const reasons = notTrue.map((c) => `${c.type}=${c.status} ${c.reason}: ${c.message}`);
  if (conditions.some((c) => c.type === 'Programmed' && HELD.test(c.message))) return { state: 'held', reasons: [...reasons, ...heldMessages(conditions)] };
  if (notTrue.length === 0) return { state: 'ok', reasons };
  if (notTrue.every((c) => c.status === 'Unknown' || c.reason === 'Pending')) return { state: 'pending', reasons };
  return { state: 'refused', reasons };
}

function heldMessages(conditions: readonly Condition[]): string[] {
  return conditions.filter((c) => c.type === 'Programmed' && c.status === 'True' && HELD.test(c.message)).map((c) => `Programmed: ${c.message}`);
}

const percent = (part: number, whole: number) => (whole > 0 ? `${Math.round((part / whole) * 1000) / 10}%` : '0%');

function matchSummary(rule: ModelRule): string {
  const matches = rule.matches.map((m) =>
    [
      `${m.path.type} ${m.path.value}`,
      ...(m.method ? [m.method] : []),
      ...m.headers.map((h) => `header ${h.name}=${h.value}`),
      ...m.queryParams.map((q) => `query ${q.name}=${q.value}`),
    ].join(' '),
  );
  const redirect = rule.filters.find((f) => f.type === 'RequestRedirect');
  const redirectTo = redirect?.type === 'RequestRedirect' ? [`redirect ${redirect.statusCode}`] : [];
  return [matches.join(' | ') || 'PathPrefix /', ...redirectTo].join('; ');
}

function originNode(entry: SplitEntry, origin: ModelOrigin | undefined, enabledTotal: number): StatusNode {
  const where = origin ? [origin.connectivity, ...(origin.address ? [origin.address] : [])].join(' ') : '';
  const reasons: string[] = [];
  let state: NodeState = entry.state === 'enabled' ? 'ok' : entry.state === 'disabled' ? 'disabled' : 'unknown';
  if (entry.state === 'disabled') reasons.push('weight 0 (its ServiceExport weight or the backendRef weight is 0): takes no traffic');
  if (entry.state === 'unknown')
    reasons.push(`member data unknown${origin?.unknownReason ? `: ${origin.unknownReason}` : ''}; AFD keeps what it last programmed`);
  const link = origin?.privateLink;
  if (link && link.connectionState !== 'Approved') {
    state = link.connectionState === 'Rejected' || link.connectionState === 'Disconnected' ? 'refused' : 'pending';
    reasons.push(`Private Link connection ${link.connectionState} on ${link.resourceId}`);
    if (link.connectionState === 'Pending') reasons.push(`approve with: ${privateLinkApprovalCommand(link.resourceId)}`);
  }
  const share = entry.weight !== undefined ? `AFD weight ${entry.weight} (${percent(entry.weight, enabledTotal)})` : 'no AFD weight';
  return { kind: 'Origin', name: entry.cluster, state, summary: [share, where].filter(Boolean).join(', '), reasons, children: [] };
}

function ruleNode(model: GlobalGateway, rule: ModelRule): StatusNode {
  const split = rule.split === undefined ? undefined : model.splits.find((s) => s.key === rule.split);
  const enabledTotal = split?.origins.reduce((sum, o) => sum + (o.weight ?? 0), 0) ?? 0;
  const routeTotal = rule.backends.reduce((sum, b) => sum + b.weight, 0);
  const backends = rule.backends.map((ref): StatusNode => {
    const backend = model.backends.find((b) => b.key === ref.backend);
    const entries = split?.origins.filter((o) => o.backend === ref.backend) ?? [];
    const origins = entries.map((e) =>
      originNode(
        e,
        backend?.origins.find((o) => o.cluster === e.cluster),
        enabledTotal,
      ),
    );
    const noOrigin = backend && origins.length === 0 ? ['no member exports it: no origin'] : [];
    return {
      kind: 'Backend',
      name: ref.backend,
      state: !backend ? 'refused' : ref.weight === 0 ? 'disabled' : origins.length === 0 ? 'refused' : 'ok',
      summary: `weight ${ref.weight} (${percent(ref.weight, routeTotal)})${backend ? `, ${backend.connectivity}` : ''}`,
      reasons: backend ? noOrigin : ['not a valid backend (see the route’s ResolvedRefs)'],
      children: origins,
    };
  });
  const state: NodeState = rule.held ? 'held' : rule.withdrawn ? 'refused' : 'ok';
  const reasons = [
    ...(rule.held ? [rule.held] : []),
    ...(rule.withdrawn ? [`withdrawn (${rule.withdrawn}): answers with Front Door's error, never another rule's backend`] : []),
  ];
  return { kind: 'Rule', name: `rule/${rule.index}`, state, summary: matchSummary(rule), reasons, children: backends };
}

/** Our status entry of the route for this Gateway, as the hub wrote it. */
function routeConditions(route: HTTPRoute, gatewayNamespace: string, gatewayName: string): Condition[] | undefined {
  const namespace = route.metadata.namespace ?? '';
  const entry = route.status?.parents?.find(
    (p) => p.controllerName === CONTROLLER_NAME && p.parentRef.name === gatewayName && (p.parentRef.namespace ?? namespace) === gatewayNamespace,
  );
  return entry?.conditions as Condition[] | undefined;
}

function routeNode(inputs: HubInputs, model: GlobalGateway | undefined, route: HTTPRoute): StatusNode {
  const { namespace = '', name } = inputs.gateway.metadata;
  const conditions = routeConditions(route, namespace, name ?? '');
  const { state, reasons } = stateOfConditions(conditions);
  const refused = conditions?.find((c) => c.type === AZURE_PROGRAMMED_CONDITION);
  const modelRoute = model?.routes.find((r) => r.namespace === route.metadata.namespace && r.name === route.metadata.name);
  return {
    kind: 'HTTPRoute',
    name: `${route.metadata.namespace}/${route.metadata.name}`,
    state: refused && state === 'ok' ? 'refused' : state,
    summary: modelRoute ? `hostnames ${modelRoute.hostnames.join(', ') || '*'}` : 'not in the programmed model',
    reasons,
    ...(conditions ? { conditions } : {}),
    children: model && modelRoute ? modelRoute.rules.map((rule) => ruleNode(model, rule)) : [],
  };
}

/**
 * The Gateway as a tree: listeners, the routes attached to each, their rules, backends and origins. Kubernetes objects
 * carry the conditions the hub wrote on them; rules, backends and origins come from the model the hub resolves from
 * the same objects (resolveGateway), with the weights it programs. Routes attached to no listener are listed under
 * the Gateway with why.
 */
export function statusTree(inputs: HubInputs, result: ResolveResult): StatusNode {
  const { gateway } = inputs;
  const model = result.model;
  const routes = inputs.httpRoutes ?? [];
  const attached = new Set<HTTPRoute>();
  const listeners = gateway.spec.listeners.map((listener): StatusNode => {
    const status = gateway.status?.listeners?.find((l) => l.name === listener.name);
    const conditions = status?.conditions as Condition[] | undefined;
    const { state, reasons } = stateOfConditions(conditions);
    const routesHere = routes.filter((r) =>
      model?.routes.some((m) => m.namespace === r.metadata.namespace && m.name === r.metadata.name && m.listeners.includes(listener.name)),
    );
    for (const r of routesHere) attached.add(r);
    return {
      kind: 'Listener',
      name: listener.name,
      state,
      summary: `${listener.protocol}:${listener.port} ${listener.hostname ?? '*'}, ${status?.attachedRoutes ?? 0} attached routes`,
      reasons,
      ...(conditions ? { conditions } : {}),
      children: routesHere.map((r) => routeNode(inputs, model, r)),
    };
  });
  const unattached = routes.filter((r) => !attached.has(r)).map((r) => routeNode(inputs, model, r));
  const conditions = gateway.status?.conditions as Condition[] | undefined;
  const { state, reasons } = stateOfConditions(conditions);
  const address = gateway.status?.addresses?.[0]?.value;
  return {
    kind: 'Gateway',
    name: `${gateway.metadata.namespace}/${gateway.metadata.name}`,
    state,
    summary: [`class ${gateway.spec.gatewayClassName}`, ...(model ? [model.config.sku] : []), ...(address ? [`address ${address}`] : [])].join(', '),
    reasons,
    ...(conditions ? { conditions } : {}),
    children: [...listeners, ...unattached],
  };
}
