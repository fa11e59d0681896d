import { afterEach, describe, expect, it } from 'vitest';
import { allRefs, planFrontDoor } from '../plan/plan-front-door.js';
import { buildGateway } from '../testing/gateway-builder.js';
import { HUB_IDENTITY, reconcile, startHarness, writesCounted, type Harness, type HarnessOptions } from '../testing/emulator-harness.js';

const model = buildGateway({
  backends: [{ name: 'web', clusters: [{ name: 'member-1' }, { name: 'member-2' }] }],
  routes: [{ name: 'shop', rules: [{ backends: [{ name: 'web' }] }] }],
});
const planned = allRefs(planFrontDoor(model, { hubIdentity: HUB_IDENTITY }).graph).length;
const ORIGINS = 'Microsoft.Cdn/profiles/originGroups/origins';
const ROUTES = 'Microsoft.Cdn/profiles/afdEndpoints/routes';

let h: Harness | undefined;
afterEach(async () => {
  await h?.emulator.stop();
  h = undefined;
});

async function harness(options: HarnessOptions = {}): Promise<Harness> {
  h = await startHarness(options);
  return h;
}

describe('faults during reconcile', () => {
  it('a 429 storm on writes is retried inside the limiter, once per attempt, and the graph converges', async () => {
    const waits: number[] = [];
    const e = await harness({ retry: { sleep: async (ms) => void waits.push(ms) } });
    e.emulator.admin.injectFault({ kind: 'status', status: 429, method: 'PUT', pathPattern: '/origins/', count: 5, retryAfterSeconds: 3 });
    const report = await reconcile(e, model);
    expect(report.failures).toEqual([]);
    expect(report.programmed).toBe(true);
    expect(e.emulator.admin.requestTotal({ method: 'PUT', resourceType: ORIGINS, status: 429 })).toBe(5);
    expect(e.emulator.admin.requestTotal({ method: 'PUT', resourceType: ORIGINS })).toBe(2 + 5);
    expect(writesCounted(e.emulator)).toBe(planned + 5);
    expect(e.limiter.stats().requests.writes).toBe(planned + 5);
    expect(waits.filter((ms) => ms === 3000)).toHaveLength(5);
  });

  it('500s are retried; when they persist the failure is transient and holds back only its route, whose team is named', async () => {
    const e = await harness({ retry: { maxRetries: 2 } });
    e.emulator.admin.injectFault({ kind: 'status', status: 500, method: 'PUT', pathPattern: '/routes/', count: 1 });
    expect((await reconcile(e, model)).failures).toEqual([]);
    expect(e.emulator.admin.requestTotal({ method: 'PUT', resourceType: ROUTES })).toBe(2);

    const wider = buildGateway({
      backends: [
        { name: 'web', clusters: [{ name: 'member-1' }] },
        { name: 'api', clusters: [{ name: 'member-1' }] },
      ],
      routes: [{ name: 'api', rules: [{ paths: ['/api'], backends: [{ name: 'api' }] }] }],
    });
    e.emulator.admin.resetCounters();
    e.emulator.admin.injectFault({ kind: 'status', status: 500, method: 'PUT', pathPattern: '/routes/', count: 10 });
    const report = await reconcile(e, wider);
    expect(e.emulator.admin.requestTotal({ method: 'PUT', resourceType: ROUTES })).toBe(3);
    // The route of HTTPRoute api failed; the withdrawal of HTTPRoute shop does not depend on it and is applied.
    expect(report.reason).toBe('Programmed');
    expect(report.outcome.type).toBe('retry');
    expect(report.failures.map((f) => [f.ref.kind, f.failure.class, f.failure.code, f.owners])).toEqual([
      ['route', 'transient', 'InternalServerError', [{ kind: 'HTTPRoute', namespace: 'store', name: 'api' }]],
    ]);
    expect(report.message).toMatch(
      /1 resource\(s\) refused by Azure.*create of route rt-api-0-[0-9a-f]+ failed: InternalServerError.*owned by HTTPRoute store\/api$/,
    );
    expect(report.resources.filter((r) => r.action === 'deleted').map((r) => r.kind)).toEqual(['route', 'originGroup']);
    expect(report.resources.filter((r) => r.action === 'skipped')).toEqual([]);
  });

  it('a long-running operation that ends Failed is reported with its code and cause', async () => {
    const e = await harness({ emulator: { lroDelayMs: 5 } });
    e.emulator.admin.injectFault({
      kind: 'lro-failure',
      method: 'PUT',
      pathPattern: '/originGroups/',
      code: 'OriginGroupInvalid',
      message: 'The health probe path is not reachable.',
    });
    const report = await reconcile(e, model);
    expect(report.outcome.type).toBe('terminal');
    expect(report.failures).toEqual([
      {
        ref: expect.objectContaining({ kind: 'originGroup' }),
        action: 'create',
        failure: {
          class: 'terminal',
          category: 'operation-failed',
          code: 'OriginGroupInvalid',
          cause: 'the operation ended Failed: The health probe path is not reachable.',
        },
        owners: [{ kind: 'HTTPRoute', namespace: 'store', name: 'shop' }],
      },
    ]);
    expect(report.message).toMatch(
      /create of origin group og-web-[0-9a-f]{12} failed: OriginGroupInvalid: the operation ended Failed: The health probe path is not reachable\., owned by HTTPRoute store\/shop$/,
    );
  });

  it('endpoint deploymentStatus stuck at NotStarted neither blocks children nor readiness; it is reported', async () => {
    const e = await harness({ emulator: { deployment: { mode: 'stuck' } } });
    const report = await reconcile(e, model);
    expect(report.failures).toEqual([]);
    expect(report.programmed).toBe(true);
    expect(report.resources.find((r) => r.kind === 'endpoint')?.deploymentStatus).toBe('NotStarted');
    expect(report.resources.filter((r) => r.kind === 'route' || r.kind === 'origin').every((r) => r.action === 'created')).toBe(true);
    expect(report.propagation).toEqual([expect.stringContaining('endpoint deploymentStatus NotStarted); this does not block programming')]);
  });

  it('a failed read writes nothing (fail-static) and asks for a retry', async () => {
    const e = await harness({ retry: { maxRetries: 1 } });
    await reconcile(e, model);
    e.emulator.admin.resetCounters();
    e.emulator.admin.injectFault({ kind: 'status', status: 503, method: 'GET', pathPattern: '/originGroups$', count: 5, retryAfterSeconds: 0 });
    const report = await reconcile(e, buildGateway({ backends: [], routes: [] }));
    expect(writesCounted(e.emulator)).toBe(0);
    expect(report.reason).toBe('AzureReadFailed');
    expect(report.outcome.type).toBe('retry');
  });
});
