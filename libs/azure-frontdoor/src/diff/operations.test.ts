import { describe, expect, it } from 'vitest';
import type { AfdRef } from '../plan/afd-refs.js';
import { orderOperations, type Operation } from './operations.js';

const p = 'p';
const op = (action: Operation['action'], ref: AfdRef): Operation => ({ action, ref, changes: [], reason: '', provenance: [] });

describe('operation order', () => {
  it('creates parents before children, enables before it disables, rules and routes after their groups and origins, deletes last: routes and rules before origins', () => {
    const ops = [
      op('delete', { kind: 'originGroup', profile: p, originGroup: 'old' }),
      op('update', { kind: 'route', profile: p, endpoint: 'e', route: 'r' }),
      op('create', { kind: 'origin', profile: p, originGroup: 'new', origin: 'o' }),
      op('delete', { kind: 'route', profile: p, endpoint: 'e', route: 'gone' }),
      op('create', { kind: 'originGroup', profile: p, originGroup: 'new' }),
      op('create', { kind: 'securityPolicy', profile: p, securityPolicy: 's' }),
      op('create', { kind: 'profile', profile: p }),
      op('delete', { kind: 'origin', profile: p, originGroup: 'kept', origin: 'x' }),
      op('delete', { kind: 'rule', profile: p, ruleSet: 'rs', rule: 'gone' }),
      op('update', { kind: 'rule', profile: p, ruleSet: 'rs', rule: 'm' }),
      { ...op('update', { kind: 'origin', profile: p, originGroup: 'kept', origin: 'off' }), body: { enabledState: 'Disabled' } },
      { ...op('update', { kind: 'origin', profile: p, originGroup: 'kept', origin: 'on' }), body: { enabledState: 'Enabled' } },
    ];
    const levels = orderOperations(ops).map((level) => level.map((o) => `${o.action} ${o.ref.kind}`));
    expect(levels).toEqual([
      ['create profile'],
      ['create originGroup'],
      ['create origin', 'update origin'],
      ['update origin'],
      ['update rule'],
      ['update route'],
      ['create securityPolicy'],
      ['delete route'],
      ['delete rule'],
      ['delete origin'],
      ['delete originGroup'],
    ]);
  });

  it('route waves: a route delete that frees a pattern runs among the route writes, before the route that takes it', () => {
    const route = (name: string) => ({ kind: 'route' as const, profile: p, endpoint: 'e', route: name });
    const ops: Operation[] = [
      { ...op('update', route('taker')), wave: 1 },
      { ...op('delete', route('giver')), wave: 0 },
      op('delete', route('unrelated')),
      op('create', { kind: 'securityPolicy', profile: p, securityPolicy: 's' }),
    ];
    expect(orderOperations(ops).map((level) => level.map((o) => `${o.action} ${o.ref.kind === 'route' ? o.ref.route : o.ref.kind}`))).toEqual([
      ['delete giver'],
      ['update taker'],
      ['create securityPolicy'],
      ['delete unrelated'],
    ]);
  });
});
