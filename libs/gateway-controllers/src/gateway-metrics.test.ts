import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { GatewayMetrics } from './gateway-metrics.js';

describe('GatewayMetrics', () => {
  it('counts failed status writes by object kind and reason', async () => {
    const registry = new Registry();
    const metrics = new GatewayMetrics(registry);
    metrics.statusWriteFailed('HTTPRoute', 'Forbidden');
    metrics.statusWriteFailed('HTTPRoute', 'Forbidden');
    metrics.statusWriteFailed('InternalServiceExport', 'ECONNRESET');
    const text = await registry.getSingleMetricAsString('fleet_gateway_status_write_failures_total');
    expect(text).toContain('fleet_gateway_status_write_failures_total{kind="HTTPRoute",reason="Forbidden"} 2');
    expect(text).toContain('fleet_gateway_status_write_failures_total{kind="InternalServiceExport",reason="ECONNRESET"} 1');
  });

  it('counts the programmings running now, and a Gateway being programmed as pending unless a programmed generation serves', async () => {
    const registry = new Registry();
    let running = 3;
    const metrics = new GatewayMetrics(registry, () => running);
    metrics.record('shop/new', { kind: 'programming', message: 'writes in flight', serving: undefined });
    metrics.record('shop/served', {
      kind: 'programming',
      message: 'writes in flight',
      serving: { type: 'Programmed', status: 'True', reason: 'Programmed', message: 'ready', lastTransitionTime: '2026-01-01T00:00:00Z' },
    });
    expect(await registry.getSingleMetricAsString('fleet_gateway_programming_tasks')).toContain('fleet_gateway_programming_tasks 3');
    running = 0;
    expect(await registry.getSingleMetricAsString('fleet_gateway_programming_tasks')).toContain('fleet_gateway_programming_tasks 0');
    const states = await registry.getSingleMetricAsString('fleet_gateway_gateways');
    expect(states).toContain('fleet_gateway_gateways{state="pending"} 1');
    expect(states).toContain('fleet_gateway_gateways{state="programmed"} 1');
  });
});
