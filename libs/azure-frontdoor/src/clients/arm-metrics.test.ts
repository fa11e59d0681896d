import type { RunningEmulator } from '@fleet-gateway/azure-emulator';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it } from 'vitest';
import { classifyArmError } from '@fleet-gateway/arm-runtime';
import { NO_RESPONSE_CODE } from '@fleet-gateway/arm-runtime';
import { buildGateway } from '../testing/gateway-builder.js';
import { reconcile, startHarness, TEST_SCOPE, type Harness } from '../testing/emulator-harness.js';

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.emulator.stop();
  harness = undefined;
});

type Series = Map<string, number>;

/** The non-zero series of one metric, keyed by their labels in the order given. */
async function series(registry: Registry, name: string, labels: string[]): Promise<Series> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const values = (metric?.values ?? []) as Array<{ labels: Record<string, string | number>; value: number }>;
  return new Map(values.filter((v) => v.value !== 0).map((v) => [labels.map((label) => String(v.labels[label])).join(' '), v.value]));
}

/** The emulator's own count of what reached it, in the metric's labels: its resource type's last segment. */
function emulatorCounted(emulator: RunningEmulator): Series {
  const counted = new Map<string, number>();
  for (const entry of emulator.admin.requestCounts()) {
    const last = entry.resourceType.split('/').at(-1) ?? '';
    const operation = /^operation(statuses|results)$/i.test(last) ? 'operationResults' : last.toLowerCase();
    const key = `${operation} ${entry.method} ${entry.status === 0 ? NO_RESPONSE_CODE : entry.status}`;
    counted.set(key, (counted.get(key) ?? 0) + entry.count);
  }
  return counted;
}

const lowerOperation = (counted: Series): Series =>
  new Map([...counted].map(([key, value]) => [key.replace(/^\S+/, (op) => (op === 'operationResults' ? op : op.toLowerCase())), value]));

const gateway = buildGateway({
  backends: [{ name: 'web', clusters: [{ name: 'member-1' }, { name: 'member-2' }] }],
  routes: [{ name: 'shop', rules: [{ paths: ['/shop'], backends: [{ name: 'web' }] }] }],
});

describe('ARM metrics (createFrontDoorClients with a registry, against the emulator)', () => {
  it('counts every attempt of a reconcile once, by resource type, method and status, as the emulator counted them', async () => {
    const registry = new Registry();
    harness = await startHarness({ metricsRegistry: registry, emulator: { lroDelayMs: 20, lroRetryAfterSeconds: 0 } });
    const report = await reconcile(harness, gateway);
    expect(report.failures).toEqual([]);

    const requests = await series(registry, 'fleet_gateway_arm_requests_total', ['operation', 'method', 'code']);
    expect(lowerOperation(requests)).toEqual(emulatorCounted(harness.emulator));
    for (const key of ['profiles PUT 201', 'afdEndpoints PUT 201', 'originGroups PUT 201', 'origins PUT 201', 'routes PUT 201']) {
      expect(requests.get(key), key).toBeGreaterThanOrEqual(1);
    }
    // The operations are followed by reading their resources (the profile by GET, after observe's 404), not their status.
    expect(requests.get('profiles GET 200')).toBeGreaterThanOrEqual(1);
    expect(requests.get('operationResults GET 200')).toBeUndefined();
    expect(await series(registry, 'fleet_gateway_arm_throttled_total', ['operation'])).toEqual(new Map());
  });

  it('counts each throttled attempt (429) and the retry that succeeded, and WAF reads under their SDK type name', async () => {
    const registry = new Registry();
    harness = await startHarness({ metricsRegistry: registry, retry: { sleep: async () => undefined } });
    const h = harness;
    h.emulator.admin.createWafPolicy({ subscriptionId: TEST_SCOPE.subscriptionId, resourceGroup: 'waf', name: 'edgePolicy', sku: 'Standard_AzureFrontDoor' });
    h.emulator.admin.injectFault({ kind: 'status', status: 429, method: 'GET', pathPattern: '/edgePolicy$', count: 2, retryAfterSeconds: 1 });
    await expect(h.clients.wafPolicies(TEST_SCOPE.subscriptionId).get('waf', 'edgePolicy')).resolves.toMatchObject({ name: 'edgePolicy' });

    const requests = await series(registry, 'fleet_gateway_arm_requests_total', ['operation', 'method', 'code']);
    expect(requests).toEqual(
      new Map([
        ['FrontDoorWebApplicationFirewallPolicies GET 429', 2],
        ['FrontDoorWebApplicationFirewallPolicies GET 200', 1],
      ]),
    );
    expect(await series(registry, 'fleet_gateway_arm_throttled_total', ['operation'])).toEqual(new Map([['FrontDoorWebApplicationFirewallPolicies', 2]]));
    const text = await registry.metrics();
    expect(text).toContain('fleet_gateway_arm_throttled_total{operation="profiles"} 0');
    expect(text).toMatch(/# HELP fleet_gateway_arm_requests_total .*retries included/);
  });

  it("counts ARM's own throttling (the emulator's read bucket running dry) and the retries after Retry-After", async () => {
    const registry = new Registry();
    let now = Date.now();
    // The retry policy's waits move the emulator's clock, so its bucket refills exactly as Retry-After promised.
    harness = await startHarness({
      metricsRegistry: registry,
      emulator: { throttling: { reads: { burst: 2, refillPerSecond: 1 }, network: false }, clock: () => now },
      retry: { sleep: async (ms) => void (now += ms) },
    });
    const h = harness;
    for (let i = 0; i < 4; i++) await h.clients.cdn.profiles.get(TEST_SCOPE.resourceGroup, 'absent').catch(() => undefined);

    const throttled = h.emulator.admin.requestTotal({ method: 'GET', status: 429 });
    expect(throttled).toBeGreaterThanOrEqual(2);
    expect(await series(registry, 'fleet_gateway_arm_throttled_total', ['operation'])).toEqual(new Map([['profiles', throttled]]));
    expect(await series(registry, 'fleet_gateway_arm_requests_total', ['operation', 'method', 'code'])).toEqual(
      new Map([
        ['profiles GET 404', 4],
        ['profiles GET 429', throttled],
      ]),
    );
  });

  it(`counts an attempt without an answer (connection reset) as code ${NO_RESPONSE_CODE}`, async () => {
    const registry = new Registry();
    harness = await startHarness({ metricsRegistry: registry, retry: { maxRetries: 1 } });
    harness.emulator.admin.injectFault({ kind: 'reset', method: 'GET', pathPattern: '/profiles/gone$', count: 2 });
    const error = await harness.clients.cdn.profiles.get(TEST_SCOPE.resourceGroup, 'gone').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(classifyArmError(error)).toMatchObject({ class: 'transient' });
    expect(await series(registry, 'fleet_gateway_arm_requests_total', ['operation', 'method', 'code'])).toEqual(
      new Map([[`profiles GET ${NO_RESPONSE_CODE}`, 2]]),
    );
  });

  it('records how long each attempt waited for the rate limiter, by request class', async () => {
    const registry = new Registry();
    const refillPerSecond = 20;
    harness = await startHarness({ metricsRegistry: registry, limiter: { reads: { burst: 1, refillPerSecond } } });
    const h = harness;
    const reads = 4;
    await Promise.all(Array.from({ length: reads }, () => h.clients.cdn.profiles.get(TEST_SCOPE.resourceGroup, 'absent').catch(() => undefined)));

    const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === 'fleet_gateway_arm_rate_limiter_wait_seconds');
    const values = (metric?.values ?? []) as Array<{ labels: Record<string, string>; value: number; metricName?: string }>;
    const read = (suffix: string, requestClass: string) =>
      values.find((v) => v.metricName === `fleet_gateway_arm_rate_limiter_wait_seconds_${suffix}` && v.labels.class === requestClass)?.value;
    expect(read('count', 'reads')).toBe(reads);
    // Sent together: the first takes the burst token, the k-th waits for k - 1 refills (queueing included).
    const leastWait = Array.from({ length: reads }, (_, k) => k / refillPerSecond).reduce((a, b) => a + b, 0);
    expect(read('sum', 'reads')).toBeGreaterThanOrEqual(leastWait * 0.95);
    expect(read('count', 'writes')).toBe(0);
  });
});
