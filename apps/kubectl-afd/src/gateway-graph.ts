import { allRefs, describeRef, type AfdRef, type FrontDoorGraph } from '@fleet-gateway/azure-frontdoor';
import type { SourceRef } from '@fleet-gateway/model';
import { afdParent, type AfdResource } from './afd-resources.js';
import type { NodeState, StatusNode } from './status-tree.js';

/** AFD resources are drawn in their Azure state when Azure was read, else as the plan has them: `planned`. */
export type GraphState = NodeState | 'planned';

export interface GraphNode {
  readonly id: string;
  /** `Gateway`, `HTTPRoute`, … or the AFD kind (`route`, `origin group`, …). */
  readonly kind: string;
  readonly name: string;
  readonly state: GraphState;
  /** AFD resources read from Azure: ARM's fields. */
  readonly provisioningState?: string;
  readonly deploymentStatus?: string;
}

export interface GatewayGraph {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly { readonly from: string; readonly to: string }[];
}

const afdId = (ref: AfdRef) => `afd:${describeRef(ref)}`;

const sameRule = (source: SourceRef, route: string, rule: string) =>
  source.kind === 'HTTPRoute' && `${source.namespace}/${source.name}` === route && source.section === rule;

/**
 * The status tree and the AFD resources of the plan as one graph (pure): one node per object, rule, backend, origin
 * and AFD resource; edges from each tree node to its children, from each AFD resource to those it holds or points at
 * (route → custom domains, rule sets and origin group; an override rule → its origin group), and from each rule of a
 * route to the AFD routes and rules planned from it. With `azure` (the resources as read from Azure), each AFD node
 * takes its Azure state, and the resources of the profile the plan lacks are drawn too (extra or kept).
 */
export function gatewayGraph(tree: StatusNode, graph: FrontDoorGraph | undefined, azure?: readonly AfdResource[]): GatewayGraph {
  const nodes: GraphNode[] = [];
  const edges: { from: string; to: string }[] = [];
  const rules: { id: string; route: string; rule: string }[] = [];
  const walk = (node: StatusNode, id: string, route: string | undefined) => {
    nodes.push({ id, kind: node.kind, name: node.name, state: node.state });
    if (node.kind === 'Rule' && route) rules.push({ id, route, rule: node.name });
    for (const child of node.children) {
      const childId = `${id}/${child.kind}:${child.name}`;
      edges.push({ from: id, to: childId });
      walk(child, childId, node.kind === 'HTTPRoute' ? node.name : route);
    }
  };
  walk(tree, `k8s:${tree.kind}:${tree.name}`, undefined);
  if (!graph) return { nodes, edges };
  const resources: readonly { ref: AfdRef; state: GraphState; provisioningState?: string; deploymentStatus?: string }[] =
    azure ?? allRefs(graph).map((ref) => ({ ref, state: 'planned' }));
  for (const { ref, state, provisioningState, deploymentStatus } of resources) {
    const words = describeRef(ref).split(' ');
    nodes.push({
      id: afdId(ref),
      kind: words.slice(0, -1).join(' '),
      name: words.at(-1)!,
      state,
      ...(provisioningState !== undefined ? { provisioningState } : {}),
      ...(deploymentStatus !== undefined ? { deploymentStatus } : {}),
    });
    const parent = afdParent(ref);
    if (parent) edges.push({ from: afdId(parent), to: afdId(ref) });
  }
  for (const route of graph.routes) {
    for (const domain of route.customDomains)
      edges.push({ from: afdId({ kind: 'customDomain', profile: route.ref.profile, customDomain: domain }), to: afdId(route.ref) });
    for (const ruleSet of route.ruleSets) edges.push({ from: afdId(route.ref), to: afdId({ kind: 'ruleSet', profile: route.ref.profile, ruleSet }) });
    edges.push({ from: afdId(route.ref), to: afdId({ kind: 'originGroup', profile: route.ref.profile, originGroup: route.originGroup }) });
  }
  for (const rule of graph.rules) {
    for (const action of rule.actions) {
      if (action.type === 'originGroupOverride')
        edges.push({ from: afdId(rule.ref), to: afdId({ kind: 'originGroup', profile: rule.ref.profile, originGroup: action.originGroup }) });
    }
  }
  for (const { id, route, rule } of rules) {
    for (const spec of [...graph.routes, ...graph.rules])
      if (spec.provenance.some((s) => sameRule(s, route, rule))) edges.push({ from: id, to: afdId(spec.ref) });
  }
  const known = new Set(nodes.map((n) => n.id));
  return { nodes, edges: edges.filter((e) => known.has(e.from) && known.has(e.to)) };
}
