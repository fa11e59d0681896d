import { afterEach, describe, expect, it } from 'vitest';
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
