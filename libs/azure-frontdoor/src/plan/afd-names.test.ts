import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  NAME_RULES,
  endpointName,
  nameProblem,
  originGroupName,
  originName,
  profileName,
  routeName,
  ruleName,
  ruleSetName,
  securityPolicyName,
} from './afd-names.js';
import type { AfdKind } from './afd-refs.js';

const gateway = { namespace: 'store', name: 'edge', uid: '6f1c2d3e-0000-4000-8000-000000000001', generation: 1 };
const anyText = fc.string({ unit: 'binary', maxLength: 300 });

function namesFor(text: string, identity: string): [AfdKind, string][] {
  const g = { namespace: text || 'ns', name: text || 'n', uid: identity, generation: 1 };
  return [
    ['profile', profileName(g)],
    ['endpoint', endpointName(g)],
    ['securityPolicy', securityPolicyName(g)],
    ['originGroup', originGroupName(text, identity)],
    ['origin', originName(text, identity)],
    ['route', routeName(text, identity)],
    ['ruleSet', ruleSetName(identity)],
    ['rule', ruleName(identity)],
  ];
}

describe('AFD names', () => {
  it('are deterministic and readable', () => {
    expect(profileName(gateway)).toBe(profileName({ ...gateway }));
    expect(profileName(gateway)).toMatch(/^fgw-store-edge-[0-9a-f]{12}$/);
    expect(endpointName(gateway)).toMatch(/^fgw-edge-[0-9a-f]{12}$/);
    expect(originName('store/web:8080', 'member-1')).toMatch(/^o-member-1-[0-9a-f]{12}$/);
    expect(ruleSetName('x')).toMatch(/^rs[0-9a-f]{16}$/);
  });

  it('are valid for their kind whatever the readable input (length and characters)', () => {
    fc.assert(
      fc.property(anyText, fc.string({ maxLength: 80 }), (text, identity) => {
        for (const [kind, name] of namesFor(text, identity)) {
          expect(nameProblem(kind, name)).toBeUndefined();
          expect(name.length).toBeLessThanOrEqual(NAME_RULES[kind].maxLength);
        }
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('differ when only the identity differs (a recreated Gateway with the same name gets a new profile)', () => {
    const recreated = { ...gateway, uid: '6f1c2d3e-0000-4000-8000-000000000002' };
    expect(profileName(recreated)).not.toBe(profileName(gateway));
    expect(endpointName(recreated)).not.toBe(endpointName(gateway));
    expect(originGroupName('web', 'a')).not.toBe(originGroupName('web', 'b'));
    expect(originName('store/web:8080', 'member-1')).not.toBe(originName('store/web:8081', 'member-1'));
  });

  it('long readable parts are shortened, never the hash', () => {
    const long = { ...gateway, namespace: 'n'.repeat(200), name: 'g'.repeat(200) };
    expect(profileName(long)).toHaveLength(63);
    expect(endpointName(long)).toHaveLength(46);
    expect(profileName(long)).toMatch(/-[0-9a-f]{12}$/);
  });

  it('names the kind, the value and the rule when a name is invalid', () => {
    expect(nameProblem('ruleSet', 'rs-1')).toBe('ruleSet name "rs-1" is invalid; expected 1..60 of a-z and 0-9, starting with a letter');
    expect(nameProblem('endpoint', `a${'b'.repeat(46)}`)).toContain('1..46');
    expect(nameProblem('origin', '-a')).toBeDefined();
  });
});
