import type { RouteParentStatus } from '@fleet-gateway/api-types';
import { planProblemsByRoute, type FailureReport } from '@fleet-gateway/azure-frontdoor';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { AZURE_PROGRAMMED_CONDITION, azureProgrammedCondition, routeParentEntries, routeParentRule, withinParentLimit } from './route-status.js';

const refused: FailureReport = {
  ref: { kind: 'customDomain', profile: 'p', customDomain: 'cd-long' },
  action: 'create',
  failure: { class: 'terminal', category: 'validation', status: 400, code: 'BadRequest', cause: 'Host name is 70 characters long' },
  owners: [{ kind: 'HTTPRoute', namespace: 'team-c', name: 'web' }],
};
const entry = (gateway: string, controllerName = CONTROLLER_NAME): RouteParentStatus =>
  ({ parentRef: { name: gateway, namespace: 'infra' }, controllerName, conditions: [] }) as unknown as RouteParentStatus;

describe('route status', () => {
  it('names the refused resource, ARM’s code and message on the AzureProgrammed condition', () => {
    expect(azureProgrammedCondition([], undefined, 3)).toBeUndefined();
    const condition = azureProgrammedCondition([refused], undefined, 3);
    expect(condition).toMatchObject({ type: AZURE_PROGRAMMED_CONDITION, status: 'False', reason: 'AzureRefused', observedGeneration: 3 });
    expect(condition?.message).toMatch(
      /^Azure refused the create of custom domain cd-long: BadRequest \(HTTP 400\): Host name is 70 characters long; .*other routes of the Gateway are programmed$/,
    );
    const transient = azureProgrammedCondition(
      [{ ...refused, failure: { ...refused.failure, class: 'transient', status: 500, code: 'InternalServerError' } }],
      undefined,
      3,
    );
    expect(transient).toMatchObject({ reason: 'AzureWriteFailed' });
    expect(transient?.message).toContain('it is retried');
  });

  it('says what the plan could not program of the route (AFD limits), and leaves held backends to ResolvedRefs', () => {
    const source = { kind: 'HTTPRoute', namespace: 'team-c', name: 'web', section: 'rule/2' } as const;
    const planned = planProblemsByRoute([
      { code: 'TooManyRoutes', message: 'HTTPRoute team-c/web waits: the profile holds 200 routes', source, blocksWrites: false },
      { code: 'InvalidBackendConfiguration', message: 'rule 2: invalid annotations; serving the last programmed configuration', source, blocksWrites: false },
    ])[0];
    const condition = azureProgrammedCondition([], planned, 4);
    expect(condition).toMatchObject({ type: AZURE_PROGRAMMED_CONDITION, status: 'False', reason: 'TooManyRoutes', observedGeneration: 4 });
    expect(condition?.message).toMatch(
      /^HTTPRoute team-c\/web waits: the profile holds 200 routes; what AFD cannot take of this route keeps what it last served/,
    );
    expect(condition?.message).not.toContain('invalid annotations');
    // Only a held backend: resolve's ResolvedRefs says it, no AzureProgrammed condition.
    expect(azureProgrammedCondition([], planProblemsByRoute([planned!.problems[1]!])[0], 4)).toBeUndefined();
    // With a refusal too, both are said, the refusal first.
    expect(azureProgrammedCondition([refused], planned, 4)?.message).toMatch(/^Azure refused .*; HTTPRoute team-c\/web waits/);
  });

  it('adds the condition to every parent entry of the route, after resolve’s', () => {
    const verdict = {
      namespace: 'team-c',
      name: 'web',
      parents: [
        { parentRef: { name: 'shared' }, conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', message: 'ok', observedGeneration: 3 }] },
      ],
    } as unknown as Parameters<typeof routeParentEntries>[0];
    const [withAzure] = routeParentEntries(verdict, azureProgrammedCondition([refused], undefined, 3));
    expect(withAzure!.conditions!.map((c) => c.type)).toEqual(['Accepted', AZURE_PROGRAMMED_CONDITION]);
    expect(routeParentEntries(verdict)[0]!.conditions!.map((c) => c.type)).toEqual(['Accepted']);
  });

  it('keeps status.parents within its 32 entries beside other controllers’ entries', () => {
    const rule = routeParentRule('infra', 'infra/shared');
    const others = Array.from({ length: 30 }, (_, i) => entry(`other-${i}`, 'example.com/other'));
    const ours = [entry('shared'), entry('shared'), entry('shared')];
    expect(withinParentLimit(others, ours, rule)).toEqual({ entries: ours.slice(0, 2), leftOut: 1 });
    // Our own current entries are replaced, so they take no room.
    expect(withinParentLimit([...others.slice(0, 29), entry('shared')], ours, rule)).toEqual({ entries: ours, leftOut: 0 });
  });

  it('owns our entries about the Gateway and about its ListenerSets, not those about another Gateway’s ListenerSet', () => {
    const setEntry = (namespace: string, name: string) =>
      ({ parentRef: { kind: 'ListenerSet', name, namespace }, controllerName: CONTROLLER_NAME, conditions: [] }) as unknown as RouteParentStatus;
    const rule = routeParentRule('team-a', 'infra/shared', new Set(['team-a/mine']));
    expect(rule.isOurs(entry('shared'))).toBe(true);
    expect(rule.isOurs(setEntry('team-a', 'mine'))).toBe(true);
    expect(rule.isOurs(setEntry('team-a', 'elsewhere'))).toBe(false);
    // A ListenerSet named like the Gateway is not the Gateway.
    expect(routeParentRule('infra', 'infra/shared').isOurs(setEntry('infra', 'shared'))).toBe(false);
  });
});
