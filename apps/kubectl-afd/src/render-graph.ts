import type { GatewayGraph, GraphNode, GraphState } from './gateway-graph.js';

const FILL: Readonly<Record<GraphState, string>> = {
  ok: '#c8e6c9',
  pending: '#fff59d',
  held: '#e1bee7',
  refused: '#ffcdd2',
  disabled: '#e0e0e0',
  unknown: '#eeeeee',
  missing: '#ff8a80',
  extra: '#ffcc80',
  planned: '#bbdefb',
};

/** Kind, name and state, and for an AFD resource read from Azure its provisioningState and deploymentStatus. */
function labelLines(node: GraphNode): string[] {
  const arm = [node.provisioningState, node.deploymentStatus].filter((s) => s !== undefined);
  return [node.kind, node.name, node.state, ...(arm.length > 0 ? [arm.join(' / ')] : [])];
}

const quoted = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;

/** Graphviz dot: one rounded box per node, filled by its state, labelled as `labelLines` says. */
export function renderDot(graph: GatewayGraph, title: string): string {
  const lines = [`digraph ${quoted(title)} {`, '  rankdir=LR;', '  node [shape=box, style="rounded,filled", fontname="sans-serif"];'];
  for (const node of graph.nodes) lines.push(`  ${quoted(node.id)} [label=${quoted(labelLines(node).join('\n'))}, fillcolor=${quoted(FILL[node.state])}];`);
  for (const edge of graph.edges) lines.push(`  ${quoted(edge.from)} -> ${quoted(edge.to)};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** Mermaid flowchart text: the same boxes and edges, one class per state. */
export function renderMermaid(graph: GatewayGraph): string {
  const ids = new Map(graph.nodes.map((node, i) => [node.id, `n${i}`]));
  const label = (text: string) => text.replaceAll('"', '#quot;');
  const lines = ['flowchart LR'];
  for (const node of graph.nodes) lines.push(`  ${ids.get(node.id)}["${labelLines(node).map(label).join('<br/>')}"]:::${node.state}`);
  for (const edge of graph.edges) lines.push(`  ${ids.get(edge.from)} --> ${ids.get(edge.to)}`);
  for (const [state, fill] of Object.entries(FILL)) lines.push(`  classDef ${state} fill:${fill}`);
  return `${lines.join('\n')}\n`;
}
