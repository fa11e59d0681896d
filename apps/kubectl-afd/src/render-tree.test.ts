import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderTree } from './render-tree.js';
import type { StatusNode } from './status-tree.js';

const leaf = (name: string, state: StatusNode['state'], reasons: string[] = []): StatusNode => ({
  kind: 'Origin',
  name,
  state,
  summary: `summary of ${name}`,
  reasons,
  children: [],
});
const tree: StatusNode = {
  kind: 'Gateway',
  name: 'shop/web',
  state: 'pending',
  summary: 'class azure-fleet-afd',
  reasons: ['Programmed=False Pending: 1 of 2 resources provisioned'],
  children: [
    {
      kind: 'Backend',
      name: 'shop/web:80',
      state: 'ok',
      summary: 'weight 1 (100%)',
      reasons: [],
      children: [leaf('member-1', 'ok'), leaf('member-2', 'refused', ['Private Link connection Rejected'])],
    },
    leaf('member-3', 'unknown', ['member data unknown']),
  ],
};

describe('renderTree', () => {
  const text = renderTree(tree, false);
  const lines = text.trimEnd().split('\n');

  it('prints one line per node with the tree drawn and the state in one aligned column', () => {
    const nodeLines = lines.filter((l) => !l.includes('!'));
    expect(nodeLines.map((l) => l.replace(/ +(ok|pending|refused|unknown) .*$/, ''))).toEqual([
      'Gateway shop/web',
      '├─ Backend shop/web:80',
      '│  ├─ Origin member-1',
      '│  └─ Origin member-2',
      '└─ Origin member-3',
    ]);
    const columns = nodeLines.map((l) => l.search(/ (ok|pending|refused|unknown) /));
    expect(new Set(columns).size).toBe(1);
  });

  it('puts the reasons of a node that is not ok under it, and none for an ok node', () => {
    expect(lines[1]).toBe('│  ! Programmed=False Pending: 1 of 2 resources provisioned');
    expect(lines.filter((l) => l.includes('!'))).toHaveLength(3);
    expect(text).toContain('│     ! Private Link connection Rejected');
  });

  it('colours states only when asked', () => {
    expect(text).toBe(stripVTControlCharacters(text));
    const coloured = renderTree(tree, true);
    expect(coloured).not.toBe(stripVTControlCharacters(coloured));
    expect(stripVTControlCharacters(coloured)).toBe(text);
  });
});
