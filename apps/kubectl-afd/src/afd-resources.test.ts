import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allRefs, describeRef, EMPTY_GRAPH, OWNERSHIP_TAGS, planFrontDoor, type ObservedGraph } from '@fleet-gateway/azure-frontdoor';
import { observedFromGraph, TEST_SCOPE } from '@fleet-gateway/azure-frontdoor/test-support';
import type { HubObjects } from '@fleet-gateway/gateway-controllers';
import { readHubInputs, resolveGateway } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { compareWithAzure, stateOfArm, type AzureView } from './afd-resources.js';
import { afdTree } from './afd-tree.js';
import { gatewayGraph } from './gateway-graph.js';
import { gatewayPlans, planChange, renderPlanChange } from './plan-change.js';
import { renderDot } from './render-graph.js';
import { renderTree } from './render-tree.js';
import { statusTree, type StatusNode } from './status-tree.js';

const HUB = { hubIdentity: 'subscription/00000000-0000-4000-8000-000000000001/cluster/hub' };
const inputs = readHubInputs(readFileSync(path.join(import.meta.dirname, '../../../libs/model/testdata/backend-weights.in.yaml'), 'utf8'));
const result = resolveGateway(inputs);
const model = result.model!;
const plan = planFrontDoor(model, HUB);
const owner = { ...HUB, gateway: model.gateway };
const applied = observedFromGraph(plan.graph, TEST_SCOPE);
const compare = (observed: ObservedGraph) => compareWithAzure(plan, observed, TEST_SCOPE, owner) as AzureView & { read: true };
const walk = (node: StatusNode): StatusNode[] => [node, ...node.children.flatMap(walk)];
const [firstOrigin] = applied.origins;
const withoutFirstOrigin: ObservedGraph = { ...applied, origins: applied.origins.slice(1) };
const extraGroup = { name: 'og-left-over', arm: { name: 'og-left-over', provisioningState: 'Succeeded', deploymentStatus: 'Succeeded' } };

describe('stateOfArm', () => {
  it('is ok once written and deployed, pending while either runs, refused when either failed', () => {
    expect(stateOfArm('Succeeded', 'Succeeded')).toBe('ok');
    expect(stateOfArm('Succeeded', undefined)).toBe('ok'); // the profile has no deploymentStatus
    expect(stateOfArm('Succeeded', 'NotStarted')).toBe('pending');
    expect(stateOfArm('Succeeded', 'InProgress')).toBe('pending');
    expect(stateOfArm('Updating', 'Succeeded')).toBe('pending');
    expect(stateOfArm('Failed', 'Succeeded')).toBe('refused');
    expect(stateOfArm('Succeeded', 'Failed')).toBe('refused');
  });
});

describe('compareWithAzure', () => {
  it('a fully applied graph: every planned resource present and ok with ARM’s fields, nothing to write', () => {
    const view = compare(applied);
    expect(view.resources.map((r) => r.resource).sort()).toEqual(allRefs(plan.graph).map(describeRef).sort());
    expect(view.resources.every((r) => r.presence === 'present' && r.state === 'ok' && r.provisioningState === 'Succeeded')).toBe(true);
    expect(view.resources.find((r) => r.ref.kind === 'route')?.deploymentStatus).toBe('Succeeded');
    expect(view.writes).toEqual([]);
  });

  it('a planned resource Azure lacks is missing, with the create the hub would send', () => {
    const view = compare(withoutFirstOrigin);
    const missing = view.resources.filter((r) => r.presence === 'missing');
    expect(missing.map((r) => r.resource)).toEqual([`origin ${firstOrigin!.parent}/${firstOrigin!.name}`]);
    expect(missing[0]).toMatchObject({ state: 'missing', write: { action: 'create' } });
    expect(missing[0]!.provisioningState).toBeUndefined();
    expect(view.writes).toContainEqual({ action: 'create', resource: missing[0]!.resource });
  });

  it('a resource of the profile the hub does not plan is extra, with the delete the hub would send', () => {
    const view = compare({ ...applied, originGroups: [...applied.originGroups, extraGroup] });
    expect(view.resources.filter((r) => r.presence === 'extra')).toMatchObject([
      { resource: 'origin group og-left-over', state: 'extra', provisioningState: 'Succeeded', write: { action: 'delete' } },
    ]);
  });

  it('drift and deployment: an origin whose weight changed in Azure would be updated; one still deploying is pending', () => {
    const [drifted, deploying, ...rest] = applied.origins;
    const observed = {
      ...applied,
      origins: [{ ...drifted!, arm: { ...drifted!.arm, weight: 999 } }, { ...deploying!, arm: { ...deploying!.arm, deploymentStatus: 'NotStarted' } }, ...rest],
    };
    const view = compare(observed);
    const of = (o: typeof drifted) => view.resources.find((r) => r.resource === `origin ${o!.parent}/${o!.name}`)!;
    expect(of(drifted)).toMatchObject({ state: 'ok', write: { action: 'update' } });
    expect(of(drifted).write!.changes.join()).toContain('999');
    expect(of(deploying)).toMatchObject({ state: 'pending', deploymentStatus: 'NotStarted' });
    expect(of(deploying).write).toBeUndefined();
  });

  it('an absent profile: everything planned is missing and would be created', () => {
    const view = compare(EMPTY_GRAPH);
    expect(view.resources.every((r) => r.presence === 'missing' && r.write?.action === 'create')).toBe(true);
  });

  it('never compares a profile that is not this Gateway’s (another hub’s tags): it says whose it is', () => {
    const tags = { ...applied.profile!.tags, [OWNERSHIP_TAGS.hubIdentity]: 'subscription/x/cluster/other' };
    const view = compareWithAzure(plan, { ...applied, profile: { ...applied.profile!, tags } }, TEST_SCOPE, owner);
    expect(view.read).toBe(false);
    expect(!view.read && view.reason).toMatch(
      /^profile fgw-.* exists but is not this Gateway's: its ownership tags are not ours: fleet-networking-hub-identity is "subscription\/x\/cluster\/other"/,
    );
  });
});

describe('the AFD resources in the status tree and the graph', () => {
  const view = compare({ ...withoutFirstOrigin, originGroups: [...applied.originGroups, extraGroup] });

  it('afdTree: the profile at the root, each resource once under the one that holds it, with ARM’s fields in text and JSON', () => {
    const tree = afdTree(view.resources)!;
    const nodes = walk(tree);
    expect(tree).toMatchObject({ kind: 'AFD', name: `profile ${plan.graph.profile.ref.profile}`, state: 'ok', azure: { provisioningState: 'Succeeded' } });
    expect(nodes).toHaveLength(view.resources.length);
    for (const group of tree.children.filter((n) => n.name.startsWith('origin group ') && n.name !== 'origin group og-left-over'))
      expect(group.children.every((c) => c.name.startsWith(`origin ${group.name.slice('origin group '.length)}/`))).toBe(true);
    const missing = nodes.find((n) => n.state === 'missing')!;
    expect(missing).toMatchObject({ summary: 'planned, not in Azure, the hub would create it', azure: { presence: 'missing', write: { action: 'create' } } });
    const text = renderTree({ ...statusTree(inputs, result), children: [tree] }, false);
    expect(text).toMatch(/AFD route \S+ +ok +provisioningState Succeeded, deploymentStatus Succeeded\n/);
    expect(text).toMatch(
      /AFD origin group og-left-over +extra +provisioningState Succeeded, deploymentStatus Succeeded, not planned, the hub would delete it\n/,
    );
    expect(text).toContain('! origin group og-left-over is not planned');
  });

  it('gatewayGraph: one node per resource read, coloured by its Azure state, extras linked to the profile', () => {
    const graph = gatewayGraph(statusTree(inputs, result), view.graph, view.resources);
    const afd = graph.nodes.filter((n) => n.id.startsWith('afd:'));
    expect(afd).toHaveLength(view.resources.length);
    expect(afd.filter((n) => n.state === 'missing')).toHaveLength(1);
    expect(graph.nodes.find((n) => n.id === 'afd:origin group og-left-over')).toMatchObject({ state: 'extra', provisioningState: 'Succeeded' });
    expect(graph.edges).toContainEqual({ from: `afd:profile ${plan.graph.profile.ref.profile}`, to: 'afd:origin group og-left-over' });
    const dot = renderDot(graph, 'store/edge');
    expect(dot).toContain('"afd:origin group og-left-over" [label="origin group\nog-left-over\nextra\nSucceeded / Succeeded", fillcolor="#ffcc80"]');
    expect(dot).toContain('fillcolor="#ff8a80"');
  });

  it('planChange: with Azure read, the writes are the hub’s diff against Azure (the missing origin too), else between the plans', () => {
    const objects = {
      gatewayClasses: [inputs.gatewayClass!],
      gateways: [inputs.gateway],
      httpRoutes: [],
      referenceGrants: [],
      serviceImports: inputs.serviceImports ?? [],
      internalServiceExports: inputs.internalServiceExports ?? [],
      namespaces: [],
    } as unknown as HubObjects;
    const withRoutes = { ...objects, httpRoutes: inputs.httpRoutes ?? [] } as HubObjects;
    // The change adds the routes to a hub that has none; Azure already has them, bar one origin.
    const plans = gatewayPlans(objects, withRoutes, 'Standard_AzureFrontDoor', HUB);
    const [fromPlans] = planChange(plans);
    const [fromAzure] = planChange(plans, new Map([['store/edge', view]]));
    expect(fromPlans!.writesFrom).toBe('hub');
    expect(fromPlans!.writes.filter((w) => w.action === 'create').length).toBeGreaterThan(1);
    expect(fromAzure).toMatchObject({ writesFrom: 'azure', writes: view.writes });
    expect(fromAzure!.writes.map((w) => `${w.action} ${w.resource}`).sort()).toEqual(
      [`create origin ${firstOrigin!.parent}/${firstOrigin!.name}`, 'delete origin group og-left-over'].sort(),
    );
    expect(renderPlanChange([fromAzure!])).toContain('2 Azure writes (against the AFD graph read from Azure):');
  });
});
