import type { CdnManagementClient } from '@azure/arm-cdn';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { armId, refKey, type AfdRef } from '../plan/afd-refs.js';
import { applyOperations, type OperationResult } from './apply.js';
import { bodyReferences, operationDependencies } from './operation-dependencies.js';
import type { Operation, OperationAction } from '../diff/operations.js';
import { TEST_SCOPE } from '../testing/emulator-harness.js';

const profile = 'p';
const groups = ['g0', 'g1', 'g2'];
const domains = ['d0', 'd1', 'd2'];
const ruleSets = ['s0', 's1'];
const id = (ref: AfdRef) => ({ id: armId(TEST_SCOPE, ref) });
const groupRef = (originGroup: string): AfdRef => ({ kind: 'originGroup', profile, originGroup });
const domainRef = (customDomain: string): AfdRef => ({ kind: 'customDomain', profile, customDomain });
const ruleSetRef = (ruleSet: string): AfdRef => ({ kind: 'ruleSet', profile, ruleSet });

const routeBody = fc.record({ group: fc.constantFrom(...groups), domains: fc.subarray(domains), ruleSets: fc.subarray(ruleSets) }).map((b) => ({
  originGroup: id(groupRef(b.group)),
  customDomains: b.domains.map((d) => id(domainRef(d))),
  ruleSets: b.ruleSets.map((s) => id(ruleSetRef(s))),
}));
const ruleBody = fc
  .constantFrom(...groups)
  .map((g) => ({ actions: [{ name: 'RouteConfigurationOverride', parameters: { originGroupOverride: { originGroup: id(groupRef(g)) } } }] }));
const policyBody = fc.subarray(domains).map((ds) => ({ parameters: { associations: [{ domains: ds.map((d) => id(domainRef(d))) }] } }));
const originBody = fc.constantFrom('Enabled', 'Disabled').map((enabledState) => ({ enabledState }));

/** Every resource of a small profile, with a body for writes and one as observed before. */
const world: { ref: AfdRef; body: fc.Arbitrary<object> }[] = [
  { ref: { kind: 'profile', profile }, body: fc.constant({}) },
  { ref: { kind: 'endpoint', profile, endpoint: 'e' }, body: fc.constant({}) },
  ...domains.map((d) => ({ ref: domainRef(d), body: fc.constant({}) })),
  ...groups.map((g) => ({ ref: groupRef(g), body: fc.constant({}) })),
  ...groups.flatMap((g) => ['o0', 'o1'].map((o) => ({ ref: { kind: 'origin', profile, originGroup: g, origin: `${g}-${o}` } as AfdRef, body: originBody }))),
  ...ruleSets.map((s) => ({ ref: ruleSetRef(s), body: fc.constant({}) })),
  ...ruleSets.flatMap((s) => ['r0', 'r1'].map((r) => ({ ref: { kind: 'rule', profile, ruleSet: s, rule: `${s}-${r}` } as AfdRef, body: ruleBody }))),
  ...['rt0', 'rt1', 'rt2', 'rt3'].map((r) => ({ ref: { kind: 'route', profile, endpoint: 'e', route: r } as AfdRef, body: routeBody })),
  { ref: { kind: 'securityPolicy', profile, securityPolicy: 'waf' }, body: policyBody },
];

const planArb = fc
  .tuple(
    ...world.map((w) =>
      fc.record({
        action: fc.constantFrom<OperationAction | 'none'>('none', 'none', 'create', 'update', 'delete'),
        body: w.body,
        before: w.body,
        wave: fc.constantFrom(undefined, 0, 1),
      }),
    ),
  )
  .map((choices) => {
    const operations: Operation[] = [];
    const before = new Map<string, object>();
    choices.forEach((c, i) => {
      const { ref } = world[i]!;
      if (c.action !== 'create') before.set(refKey(ref), c.before);
      if (c.action === 'none') return;
      const wave = ref.kind === 'route' && c.action !== 'delete' ? c.wave : undefined;
      operations.push({
        action: c.action,
        ref,
        ...(c.action === 'delete' ? {} : { body: c.body }),
        changes: [],
        reason: 'test',
        provenance: [],
        ...(wave === undefined ? {} : { wave }),
      });
    });
    return { operations, before };
  })
  .filter((p) => p.operations.length > 0)
  .chain((p) => fc.record({ plan: fc.constant(p), failing: fc.nat(p.operations.length - 1) }));

/** A client that ARM answers every write of whole (Succeeded), but refuses the write of the one resource named `failing`. */
function fakeCdn(failing: string, calls: string[]): CdnManagementClient {
  // As the SDK's operation groups do, every call sends through `this.client.sendOperationRequest`; the resource's own
  // name is the last name of the call (resource group, profile, parent, name).
  const group = new Proxy(
    {},
    {
      get: () =>
        function (this: { client: CdnManagementClient }, ...args: unknown[]) {
          const names = args.filter((a) => typeof a === 'string');
          return this.client.sendOperationRequest({ name: names[names.length - 1] }, {} as never);
        },
    },
  );
  const send = async (args: { name: string; options?: { onResponse?: (raw: unknown) => void } }) => {
    calls.push(args.name);
    if (args.name === failing) throw Object.assign(new Error('refused'), { statusCode: 400, code: 'BadRequest' });
    const body = { provisioningState: 'Succeeded' };
    args.options?.onResponse?.({ status: 200, headers: { get: () => undefined }, parsedBody: body, request: { method: 'PUT' } });
    return body;
  };
  return new Proxy({}, { get: (_, name) => (name === 'sendOperationRequest' ? send : group) }) as CdnManagementClient;
}

function dependents(operations: readonly Operation[], needs: readonly number[][], root: number): Set<number> {
  const found = new Set<number>();
  let grew = true;
  while (grew) {
    grew = false;
    needs.forEach((n, i) => {
      if (!found.has(i) && n.some((d) => d === root || found.has(d))) {
        found.add(i);
        grew = true;
      }
    });
  }
  return found;
}

const nameOf = (ref: AfdRef) => refKey(ref).split('/').pop()!;

describe('applying by dependency', () => {
  it('one failed write skips exactly what depends on it, transitively; everything independent is written', async () => {
    await fc.assert(
      fc.asyncProperty(planArb, async ({ plan, failing }) => {
        const { operations, before } = plan;
        const calls: string[] = [];
        const failed = operations[failing]!;
        const results = await applyOperations(fakeCdn(nameOf(failed.ref), calls), TEST_SCOPE, operations, { before: (ref) => before.get(refKey(ref)) });
        const byOp = new Map<Operation, OperationResult>(results.map((r) => [r.op, r]));
        expect(results).toHaveLength(operations.length);
        const held = dependents(
          operations,
          operationDependencies(operations, (ref) => before.get(refKey(ref))),
          failing,
        );
        operations.forEach((op, i) => {
          const outcome = byOp.get(op)!.outcome;
          if (i === failing) expect(outcome).toBe('failed');
          else expect(outcome).toBe(held.has(i) ? 'skipped' : 'done');
        });
      }),
      { numRuns: 300 },
    );
  });

  it('a write naming a resource whose write failed, and a delete of a resource a failed write named before, are never attempted', async () => {
    await fc.assert(
      fc.asyncProperty(planArb, async ({ plan, failing }) => {
        const { operations, before } = plan;
        const failed = operations[failing]!;
        const failedKey = refKey(failed.ref);
        const results = await applyOperations(fakeCdn(nameOf(failed.ref), []), TEST_SCOPE, operations, { before: (ref) => before.get(refKey(ref)) });
        for (const r of results) {
          if (r.op === failed) continue;
          const names = bodyReferences(r.op.ref.kind, r.op.body);
          if (failed.action !== 'delete' && r.op.action !== 'delete' && names.includes(failedKey)) expect(r.outcome).toBe('skipped');
          const namedBefore = bodyReferences(failed.ref.kind, before.get(failedKey));
          if (failed.action !== 'create' && r.op.action === 'delete' && namedBefore.includes(refKey(r.op.ref))) expect(r.outcome).toBe('skipped');
          // Children of a failed create are never attempted either.
          const parent =
            r.op.ref.kind === 'origin' ? refKey(groupRef(r.op.ref.originGroup)) : r.op.ref.kind === 'rule' ? refKey(ruleSetRef(r.op.ref.ruleSet)) : undefined;
          if (failed.action !== 'delete' && r.op.action !== 'delete' && parent === failedKey) expect(r.outcome).toBe('skipped');
        }
      }),
      { numRuns: 300 },
    );
  });
});
