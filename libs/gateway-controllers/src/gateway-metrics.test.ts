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
});
