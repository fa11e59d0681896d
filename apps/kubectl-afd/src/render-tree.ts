import { styleText } from 'node:util';
import type { NodeState, StatusNode } from './status-tree.js';

const STATE_COLOUR: Readonly<Record<NodeState, Parameters<typeof styleText>[0]>> = {
  ok: 'green',
  pending: 'yellow',
  held: 'magenta',
  refused: 'red',
  disabled: 'gray',
  unknown: 'gray',
  missing: 'red',
  extra: 'yellow',
};

interface Line {
  readonly label: string;
  readonly node: StatusNode;
  readonly indent: string;
}

function flatten(node: StatusNode, prefix: string, branch: string, lines: Line[]): void {
  // What lines under this node start with: the branch's continuation, so the tree's lines stay unbroken.
  const indent = prefix + (branch === '' ? '' : branch === '└─ ' ? '   ' : '│  ');
  lines.push({ label: `${prefix}${branch}${node.kind} ${node.name}`, node, indent });
  node.children.forEach((child, i) => flatten(child, indent, i === node.children.length - 1 ? '└─ ' : '├─ ', lines));
}

/**
 * The tree for people: one line per node, its state in one aligned column then its summary, and under a node that is
 * not ok each reason on its own line. Colours only when asked (stdout is a TTY).
 */
export function renderTree(root: StatusNode, colour: boolean): string {
  const lines: Line[] = [];
  flatten(root, '', '', lines);
  const width = Math.max(...lines.map((l) => l.label.length));
  const stateWidth = Math.max(...lines.map((l) => l.node.state.length));
  const paint = (state: NodeState, text: string) => (colour ? styleText(STATE_COLOUR[state], text, { validateStream: false }) : text);
  const out: string[] = [];
  for (const { label, node, indent } of lines) {
    out.push(`${label.padEnd(width)}  ${paint(node.state, node.state.padEnd(stateWidth))}  ${node.summary}`.trimEnd());
    const under = node.children.length > 0 ? `${indent}│  ` : indent;
    for (const reason of node.state === 'ok' ? [] : node.reasons) out.push(`${under}${paint(node.state, '!')} ${reason}`);
  }
  return `${out.join('\n')}\n`;
}
