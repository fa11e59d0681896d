import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { PrivateLinkApprovalMetrics } from './approval-metrics.js';

describe('PrivateLinkApprovalMetrics', () => {
  it('sums the possible impersonations of the last observation of each Service; a clean or forgotten Service counts none', async () => {
    const registry = new Registry();
    const metrics = new PrivateLinkApprovalMetrics(registry);
    const value = async () => (await registry.getSingleMetric('fleet_member_private_link_possible_impersonations')?.get())?.values[0]?.value;
    expect(await value()).toBe(0);
    metrics.record('shop/web', 2);
    metrics.record('shop/cart', 1);
    expect(await value()).toBe(3);
    metrics.record('shop/web', 0);
    metrics.forget('shop/cart');
    expect(await value()).toBe(0);
  });
});
