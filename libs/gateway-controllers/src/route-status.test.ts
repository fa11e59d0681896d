import type { RouteParentStatus } from '@fleet-gateway/api-types';
import type { FailureReport } from '@fleet-gateway/azure-frontdoor';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { AZURE_PROGRAMMED_CONDITION, azureFailureCondition, routeParentEntries, routeParentRule, withinParentLimit } from './route-status.js';

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
    expect(azureFailureCondition([], 3)).toBeUndefined();
    const condition = azureFailureCondition([refused], 3);
    expect(condition).toMatchObject({ type: AZURE_PROGRAMMED_CONDITION, status: 'False', reason: 'AzureRefused', observedGeneration: 3 });
    expect(condition?.message).toMatch(/^Azure refused the create of custom domain cd-long: BadRequest \(HTTP 400\): Host name is 70 characters long; .*other routes of the Gateway are programmed$/);
    const transient = azureFailureCondition([{ ...refused, failure: { ...refused.failure, class: 'transient', status: 500, code: 'InternalServerError' } }], 3);
    expect(transient).toMatchObject({ reason: 'AzureWriteFailed' });
    expect(transient?.message).toContain('it is retried');
  });

  it('adds the condition to every parent entry of the route, after resolve’s', () => {
    const verdict = {
      namespace: 'team-c',
      name: 'web',
      parents: [{ parentRef: { name: 'shared' }, conditions: [{ type: 'Accepted', status: 'True', reason: 'Accepted', message: 'ok', observedGeneration: 3 }] }],
    } as unknown as Parameters<typeof routeParentEntries>[0];
    const [withAzure] = routeParentEntries(verdict, azureFailureCondition([refused], 3));
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
});
