import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allRefs, planFrontDoor } from '@fleet-gateway/azure-frontdoor';
import { readHubInputs, resolveGateway } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { gatewayGraph } from './gateway-graph.js';
import { renderDot, renderMermaid } from './render-graph.js';
import { statusTree, type StatusNode } from './status-tree.js';

const inputs = readHubInputs(readFileSync(path.join(import.meta.dirname, '../../../libs/model/testdata/backend-weights.in.yaml'), 'utf8'));
const result = resolveGateway(inputs);
const plan = planFrontDoor(result.model!, { hubIdentity: 'test' });
const tree = statusTree(inputs, result);
const graph = gatewayGraph(tree, plan.graph);
const count = (node: StatusNode): number => 1 + node.children.reduce((sum, c) => sum + count(c), 0);

describe('gatewayGraph', () => {
  it('has one node per tree node and per planned AFD resource, each id once', () => {
    expect(graph.nodes).toHaveLength(count(tree) + allRefs(plan.graph).length);
    expect(new Set(graph.nodes.map((n) => n.id)).size).toBe(graph.nodes.length);
    expect(graph.nodes.filter((n) => n.state === 'planned')).toHaveLength(allRefs(plan.graph).length);
  });

  it('links every node but the Gateway and the profile to a parent, and each rule to the AFD resources planned from it', () => {
    const targets = new Set(graph.edges.map((e) => e.to));
    const roots = graph.nodes.filter((n) => !targets.has(n.id)).map((n) => `${n.kind} ${n.name}`);
    expect(roots).toEqual(['Gateway store/edge', `profile ${plan.graph.profile.ref.profile}`]);
    const rule0 = graph.nodes.find((n) => n.kind === 'Rule' && n.name === 'rule/0')!;
    const fromRule = graph.edges.filter((e) => e.from === rule0.id).map((e) => e.to);
    expect(fromRule.some((id) => id.startsWith('afd:route '))).toBe(true);
  });

  it('renders dot and mermaid with one box per node and one arrow per edge', () => {
    const dot = renderDot(graph, 'store/edge');
    expect(dot.match(/^ {2}"[^"]+" \[label=/gm)).toHaveLength(graph.nodes.length);
    expect(dot.match(/ -> /g)).toHaveLength(graph.edges.length);
    expect(dot).toContain('fillcolor="#ffcdd2"'); // the withdrawn rule is refused
    const mermaid = renderMermaid(graph);
    expect(mermaid.match(/^ {2}n\d+\[/gm)).toHaveLength(graph.nodes.length);
    expect(mermaid.match(/ --> /g)).toHaveLength(graph.edges.length);
  });
});
