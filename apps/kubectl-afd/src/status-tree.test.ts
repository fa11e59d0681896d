import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Condition } from '@fleet-gateway/api-types';
import { readHubInputs, resolveGateway, type HubInputs } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { stateOfConditions, statusTree, type StatusNode } from './status-tree.js';

const fixture = (name: string): HubInputs =>
  readHubInputs(readFileSync(path.join(import.meta.dirname, '../../../libs/model/testdata', `${name}.in.yaml`), 'utf8'));
const treeOf = (inputs: HubInputs) => statusTree(inputs, resolveGateway(inputs));
const condition = (type: string, status: Condition['status'], reason: string, message = ''): Condition =>
  ({ type, status, reason, message, lastTransitionTime: '2026-01-01T00:00:00Z' }) as Condition;

function find(node: StatusNode, kind: StatusNode['kind'], name: string): StatusNode {
  const found = [node, ...node.children.map((c) => walk(c))].flat().find((n) => n.kind === kind && n.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in the tree`);
  return found;
}
const walk = (node: StatusNode): StatusNode[] => [node, ...node.children.flatMap(walk)];

describe('statusTree', () => {
  const weights = fixture('backend-weights');
  const tree = treeOf(weights);

  it('nests listeners, routes, rules, backends and origins as the model attaches them', () => {
    expect(tree).toMatchObject({ kind: 'Gateway', name: 'store/edge' });
    expect(tree.children.map((c) => `${c.kind} ${c.name}`)).toEqual(['Listener http']);
    const route = tree.children[0]!.children;
    expect(route.map((r) => r.name)).toEqual(['store/web']);
    expect(route[0]!.children.map((r) => r.name)).toEqual(['rule/0', 'rule/1']);
  });

  it('gives each backend its share of the route weights and each origin the weight the model programs, in percent', () => {
    const model = resolveGateway(weights).model!;
    const rule = find(tree, 'Rule', 'rule/0');
    expect(rule.children.map((b) => `${b.name} ${b.summary.split(',')[0]}`)).toEqual([
      'store/cart:8080 weight 30 (30%)',
      'store/legacy:8080 weight 0 (0%)',
      'store/web:8080 weight 70 (70%)',
    ]);
    const split = model.splits.find((s) => s.key === model.routes[0]!.rules[0]!.split)!;
    const total = split.origins.reduce((sum, o) => sum + (o.weight ?? 0), 0);
    for (const entry of split.origins) {
      const origin = find(rule, 'Backend', entry.backend).children.find((o) => o.name === entry.cluster)!;
      if (entry.weight === undefined) expect(origin.state).not.toBe('ok');
      else expect(origin.summary).toContain(`AFD weight ${entry.weight} (${Math.round((entry.weight / total) * 1000) / 10}%)`);
    }
    expect(find(rule, 'Backend', 'store/legacy:8080').state).toBe('disabled');
    expect(find(rule, 'Backend', 'store/legacy:8080').children.every((o) => o.state === 'disabled')).toBe(true);
  });

  it('says a withdrawn rule is refused and why', () => {
    const rule = find(tree, 'Rule', 'rule/1');
    expect(rule.state).toBe('refused');
    expect(rule.summary).toBe('PathPrefix /drain');
    expect(rule.reasons.join()).toContain('AllBackendWeightsZero');
  });

  it('says which Private Link connections await approval, with the approval command for a pending one', () => {
    const origins = walk(treeOf(fixture('connectivity-auto-private-link'))).filter((n) => n.kind === 'Origin');
    const byCluster = new Map(origins.map((o) => [o.name, o]));
    expect(byCluster.get('member-1')!.state).toBe('ok');
    const pending = byCluster.get('member-2')!;
    expect(pending.state).toBe('pending');
    expect(pending.reasons).toContain(
      'approve with: az network private-endpoint-connection list --id /subscriptions/00000000-0000-0000-0000-000000000002/resourceGroups/mc-member-2/providers/Microsoft.Network/privateLinkServices/pls-web (the connection whose description is the request message), then az network private-endpoint-connection approve --id <connection id>',
    );
    expect(byCluster.get('member-3')!.state).toBe('pending');
    expect(byCluster.get('member-3')!.reasons.join()).not.toContain('approve with');
  });

  it('reads the Gateway, listener and route states from the conditions the hub wrote', () => {
    const gateway = {
      ...weights.gateway,
      status: {
        conditions: [condition('Accepted', 'True', 'Accepted'), condition('Programmed', 'False', 'Pending', '2 of 3 resources provisioned')],
        listeners: [{ name: 'http', attachedRoutes: 1, supportedKinds: [], conditions: [condition('Programmed', 'True', 'Programmed')] }],
      },
    };
    const route = weights.httpRoutes![0]!;
    const refusedRoute = {
      ...route,
      status: {
        parents: [
          {
            parentRef: { name: 'edge', namespace: 'store' },
            controllerName: 'networking.fleet.azure.com/afd',
            conditions: [
              condition('Accepted', 'True', 'Accepted'),
              condition('networking.fleet.azure.com/AzureProgrammed', 'False', 'AzureRefused', 'Azure refused it'),
            ],
          },
        ],
      },
    };
    const tree = treeOf({ ...weights, gateway, httpRoutes: [refusedRoute] } as HubInputs);
    expect(tree.state).toBe('pending');
    expect(tree.reasons).toEqual(['Programmed=False Pending: 2 of 3 resources provisioned']);
    expect(tree.children[0]!.state).toBe('ok');
    const routeNode = find(tree, 'HTTPRoute', 'store/web');
    expect(routeNode.state).toBe('refused');
    expect(routeNode.reasons).toEqual(['networking.fleet.azure.com/AzureProgrammed=False AzureRefused: Azure refused it']);
  });

  it('lists a route attached to no listener under the Gateway, with its refusal', () => {
    const route = weights.httpRoutes![0]!;
    const elsewhere = {
      ...route,
      metadata: { ...route.metadata, name: 'other' },
      spec: { ...route.spec, parentRefs: [{ name: 'edge', namespace: 'store', sectionName: 'nope' }] },
    };
    const tree = treeOf({ ...weights, httpRoutes: [route, elsewhere] } as HubInputs);
    expect(tree.children.map((c) => `${c.kind} ${c.name}`)).toEqual(['Listener http', 'HTTPRoute store/other']);
    expect(tree.children[1]!.summary).toBe('not in the programmed model');
  });
});

describe('stateOfConditions', () => {
  it('is unknown without status, ok when all are True, pending while only Pending, refused otherwise', () => {
    expect(stateOfConditions(undefined).state).toBe('unknown');
    expect(stateOfConditions([condition('Accepted', 'True', 'Accepted'), condition('Conflicted', 'False', 'NoConflicts')]).state).toBe('ok');
    expect(stateOfConditions([condition('Conflicted', 'True', 'HostnameConflict')]).state).toBe('refused');
    expect(stateOfConditions([condition('Programmed', 'False', 'Pending')]).state).toBe('pending');
    expect(stateOfConditions([condition('Programmed', 'False', 'NoResources')]).state).toBe('refused');
  });

  it('is held when Programmed says the Gateway serves an earlier generation', () => {
    const held = condition(
      'Programmed',
      'True',
      'Programmed',
      'serves the configuration accepted at generation 3; generation 4 is not accepted (see Accepted), so nothing was changed in Azure: ok',
    );
    const { state, reasons } = stateOfConditions([condition('Accepted', 'False', 'Invalid', 'bad'), held]);
    expect(state).toBe('held');
    expect(reasons.join('\n')).toContain('generation 4 is not accepted');
  });
});
