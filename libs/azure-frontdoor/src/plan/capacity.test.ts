import { describe, expect, it } from 'vitest';
import { limitsFor } from './afd-limits.js';
import { checkCapacity, measureGraph } from './capacity.js';
import { planFrontDoor } from './plan-front-door.js';
import { isWritable } from './plan-types.js';
import { buildGateway, largeGateway } from '../testing/gateway-builder.js';

const options = { hubIdentity: 'hub-1' };

describe('capacity preflight', () => {
  it('measures origins as actually planned (one per group x backend x cluster), groups, routes and the composite metric', () => {
    const measured = measureGraph(planFrontDoor(largeGateway(10, 3), options).graph);
    expect(measured.origins.value).toBe(30);
    expect(measured.originGroups.value).toBe(10);
    expect(measured.routes.value).toBe(10);
    expect(measured.originsPerOriginGroup.value).toBe(3);
    expect(measured.compositeRouteMetric.value).toBe(20);
  });

  it('over a Standard limit: names the dimension, the value and the limit, and the plan is not writable', () => {
    const plan = planFrontDoor(largeGateway(51, 2, 'Standard_AzureFrontDoor'), options);
    expect(plan.capacity).toEqual([
      {
        dimension: 'origins',
        value: 102,
        limit: 100,
        message: 'CapacityExceeded: origins per profile would be 102; the limit for Standard_AzureFrontDoor is 100',
      },
    ]);
    expect(isWritable(plan)).toBe(false);
  });

  it('the same Gateway fits Premium', () => {
    expect(planFrontDoor(largeGateway(51, 2, 'Premium_AzureFrontDoor'), options).capacity).toEqual([]);
  });

  it('names the origin group that has too many origins', () => {
    const clusters = Array.from({ length: 51 }, (_, i) => ({ name: `m${i}` }));
    const plan = planFrontDoor(
      buildGateway({ backends: [{ name: 'web', clusters }], routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }] }),
      options,
    );
    const violation = plan.capacity.find((v) => v.dimension === 'originsPerOriginGroup');
    expect(violation?.value).toBe(51);
    expect(violation?.limit).toBe(50);
    expect(violation?.message).toMatch(
      /^CapacityExceeded: origins per origin group would be 51 \(origin group og-web-[0-9a-f]{12}\); the limit for Premium_AzureFrontDoor is 50$/,
    );
  });

  it('overrides lower limits and never raise them', () => {
    expect(limitsFor('Standard_AzureFrontDoor', { origins: 80, routes: 10_000 })).toMatchObject({ origins: 80, routes: 100 });
    const graph = planFrontDoor(largeGateway(10, 3), options).graph;
    expect(checkCapacity(graph, 'Premium_AzureFrontDoor', { origins: 20 }).map((v) => [v.dimension, v.value, v.limit])).toEqual([['origins', 30, 20]]);
  });
});
