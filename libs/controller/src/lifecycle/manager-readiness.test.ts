import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { ControllerMetrics } from '../observability/controller-metrics.js';
import { Manager } from './manager.js';

let manager: Manager | undefined;
afterEach(async () => {
  await manager?.shutdown('test over');
});

describe('a readiness check the agent registers', () => {
  it('joins /readyz beside the built-in checks and follows its answer', async () => {
    let prerequisite = { ok: false, message: 'the widget CRD is not installed' };
    manager = new Manager({ health: { host: '127.0.0.1', port: 0 } });
    manager.addReadinessCheck({ name: 'widget-crd', check: () => prerequisite });
    await manager.start();

    const before = await fetch(`${manager.healthUrl}/readyz`);
    expect(before.status).toBe(503);
    expect(await before.text()).toContain('[+]informers-synced ok\n[-]widget-crd failed: the widget CRD is not installed');

    prerequisite = { ok: true, message: '' };
    const after = await fetch(`${manager.healthUrl}/readyz`);
    expect(after.status).toBe(200);
    expect(await after.text()).toContain('[+]widget-crd ok');
  });
});

describe('a separate metrics address', () => {
  it('serves /metrics there and only the probes on the health address', async () => {
    const metrics = new ControllerMetrics(new Registry());
    manager = new Manager({ metrics, health: { host: '127.0.0.1', port: 0 }, metricsAddress: { host: '127.0.0.1', port: 0 } });
    metrics.registerController('widgets');
    await manager.start();
    expect(manager.metricsUrl).not.toBe(manager.healthUrl);
    expect(await (await fetch(`${manager.metricsUrl}/metrics`)).text()).toContain('controller_reconcile_total{controller="widgets",outcome="done"} 0');
    expect((await fetch(`${manager.metricsUrl}/readyz`)).status).toBe(404);
    expect((await fetch(`${manager.healthUrl}/readyz`)).status).toBe(200);
    expect((await fetch(`${manager.healthUrl}/metrics`)).status).toBe(404);
    await manager.shutdown('test over');
    await expect(fetch(`${manager.metricsUrl}/metrics`)).rejects.toThrow();
  });
});
