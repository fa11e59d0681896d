import { eventually } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GATEWAY_FINALIZER } from './gateway-finalizer.js';
import { AZURE_DATA_CURRENT_CONDITION } from './gateway-status.js';
import {
  afdResourceCount,
  armWrites,
  gatewayEvents,
  gone,
  linesWithStackTraces,
  profileOf,
  programmedOf,
  whenProgrammed,
  whenImported,
  whenRouteRefused,
  whenWarned,
} from './test-support/hub-probes.js';
import {
  applyObject,
  conditionOf,
  gatewayBody,
  gatewayPath,
  publishExport,
  readGateway,
  routeBody,
  routePath,
  SCOPE,
  startHubWithAgent,
  type HubUnderTest,
} from './test-support/hub-under-test.js';

// ARM faults injected by the emulator, scoped to one Gateway's profile by path: each Gateway converges once the
// fault passes, or says on Programmed and in a Warning Event what Azure answered.
let hub: HubUnderTest;
const TERMINAL_RECHECK_MS = 1_500;
const DELETION_POLICY = 'networking.fleet.azure.com/afd-deletion-policy';

// deploymentStatus never leaves NotStarted: programming must not depend on it.
beforeAll(
  async () => void ({ hub } = await startHubWithAgent({ emulator: { lroDelayMs: 5, deployment: 'stuck' }, agent: { terminalRecheckMs: TERMINAL_RECHECK_MS } })),
  120_000,
);
afterAll(() => hub?.stop());

beforeEach(() => {
  hub.emulator.admin.clearFaults();
  hub.emulator.admin.resetCounters();
});

const profilePath = (gateway: string) => `/profiles/fgw-shop-${gateway}-[0-9a-f]{12}`;

async function createGateway(name: string, cluster = 'member-1', annotations: Record<string, string> = {}): Promise<void> {
  await publishExport(hub.client, { cluster, service: name, publicAddress: `10.9.0.${name.length}` });
  await whenImported(hub, name, [cluster]);
  // The route first, so that the Gateway's first model has it: a programming of a model without it would be replaced
  // by the next one, its outcome (the faults these tests count) never reported.
  await applyObject(hub.client, routePath(name), routeBody(name, name, [{ path: '/', backends: [{ name }] }]));
  await applyObject(hub.client, gatewayPath(name), gatewayBody(name, annotations));
}

function noStackTraces(): void {
  expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
}

describe('ARM faults on a real API server and the Azure emulator', { timeout: 60_000 }, () => {
  it('a 429 storm with Retry-After on the profile write is waited out: programmed, one accepted write per resource', async () => {
    hub.emulator.admin.injectFault({ kind: 'status', status: 429, method: 'PUT', pathPattern: `${profilePath('storm')}$`, count: 6, retryAfterSeconds: 1 });
    await createGateway('storm');

    // 1 + 4 attempts of one reconcile meet a 429 each; the Gateway says so, then the next reconcile gets through.
    const warning = await whenWarned(hub.client, 'storm', 'AzureWriteFailed', 30_000);
    expect(warning?.note).toMatch(/^create of profile fgw-shop-storm-[0-9a-f]{12} failed: TooManyRequests \(HTTP 429\): /);
    await whenProgrammed(hub, 'storm', ['storm']);
    const profile = await profileOf(hub, 'storm');
    expect(hub.emulator.admin.requestTotal({ method: 'PUT', status: 429 })).toBe(6);
    expect(hub.emulator.admin.requestTotal({ method: 'PUT' }) - 6).toBe(await afdResourceCount(hub, profile));
    expect(hub.emulator.admin.requestTotal({ method: 'DELETE' })).toBe(0);
    noStackTraces();
  });

  it('500s on the route write: the HTTPRoute says AzureWriteFailed naming the AFD route and the code while they last, nothing deleted, then programmed', async () => {
    // 8 reconciles of 5 attempts each: the key's backoff (5 ms doubling) keeps the failure visible for over a second.
    hub.emulator.admin.injectFault({
      kind: 'status',
      status: 500,
      method: 'PUT',
      pathPattern: `${profilePath('flaky')}/afdEndpoints/[^/]+/routes/`,
      count: 40,
    });
    await createGateway('flaky');

    // The route's failure is the route's: its parent entry says so, the Gateway (profile, endpoint) is programmed.
    const failing = await whenRouteRefused(hub, 'flaky');
    expect(failing).toMatchObject({ status: 'False', reason: 'AzureWriteFailed', observedGeneration: 1 });
    expect(failing?.message).toMatch(/^Azure refused the create of route rt-flaky-[^ ]+: InternalServerError \(HTTP 500\): An internal error occurred/);
    const gateway = await eventually(
      () => programmedOf(hub, 'flaky'),
      (c) => c?.message.includes('refused by Azure') === true,
      30_000,
    );
    expect(gateway).toMatchObject({ status: 'True', reason: 'Programmed' });
    expect(gateway?.message).toMatch(/create of route rt-flaky-[^ ]+ failed: InternalServerError \(HTTP 500\).*, owned by HTTPRoute shop\/flaky/);

    await whenProgrammed(hub, 'flaky', ['flaky']);
    expect(hub.emulator.admin.requestTotal({ method: 'PUT', status: 500 })).toBe(40);
    expect(hub.emulator.admin.requestTotal({ method: 'DELETE' })).toBe(0);
    // Everything but the route was written once; the route once more than it was refused.
    expect(hub.emulator.admin.requestTotal({ method: 'PUT' }) - 40).toBe(await afdResourceCount(hub, await profileOf(hub, 'flaky')));
    noStackTraces();
  });

  it('a long-running operation that ends Failed is reported with its code and cause, and the next look converges', async () => {
    hub.emulator.admin.injectFault({
      kind: 'lro-failure',
      method: 'PUT',
      pathPattern: `${profilePath('lro')}/originGroups/[^/]+$`,
      code: 'OriginGroupInvalid',
      message: 'The health probe path is not reachable.',
    });
    await createGateway('lro');

    const failed = await whenRouteRefused(hub, 'lro');
    expect(failed).toMatchObject({ status: 'False', reason: 'AzureRefused' });
    expect(failed?.message).toMatch(
      /^Azure refused the create of origin group og-lro-[0-9a-f]{12}: OriginGroupInvalid: the operation ended Failed: The health probe path is not reachable\.; /,
    );
    // A route's terminal refusal is a warning line with its cause, never a stack trace; the key is looked at again later.
    expect(hub.logs.lines.some((l) => l.level === 'warn' && String(l.cause).includes('OriginGroupInvalid'))).toBe(true);
    noStackTraces();

    const programmed = await whenProgrammed(hub, 'lro', ['lro']);
    expect(programmed.status?.addresses?.[0]?.value).toMatch(/\.azurefd\.net$/);
  });

  it('an ARM outage (503 on every read) leaves the status as last observed, says what failed, and clears when ARM answers', async () => {
    await createGateway('outage');
    const before = await whenProgrammed(hub, 'outage', ['outage']);
    const addresses = before.status?.addresses;
    expect(addresses?.[0]?.value).toMatch(/\.azurefd\.net$/);
    expect(conditionOf(before, AZURE_DATA_CURRENT_CONDITION)).toMatchObject({ status: 'True', reason: 'AzureDataRead' });
    hub.emulator.admin.resetCounters();
    hub.emulator.admin.injectFault({ kind: 'status', status: 503, method: 'GET', pathPattern: profilePath('outage'), count: 100_000 });
    // A second route changes the model, so the hub reads Azure again.
    await applyObject(hub.client, routePath('outage-api'), routeBody('outage-api', 'outage', [{ path: '/api', backends: [{ name: 'outage' }] }]));

    const during = await eventually(
      () => readGateway(hub.client, 'outage'),
      (g) => conditionOf(g, AZURE_DATA_CURRENT_CONDITION)?.status === 'False',
      30_000,
    );
    expect(during.status?.addresses).toEqual(addresses);
    const unreadable = conditionOf(during, AZURE_DATA_CURRENT_CONDITION);
    expect(unreadable).toMatchObject({ reason: 'AzureReadFailed' });
    expect(unreadable?.message).toMatch(/^reading the AFD profile failed, nothing was changed: ServiceUnavailable \(HTTP 503\): /);
    const programmed = conditionOf(during, 'Programmed');
    expect(programmed).toMatchObject({ status: 'True', reason: 'Programmed' });
    expect(programmed?.message).toMatch(
      /^Azure could not be read \(reading the AFD profile failed, nothing was changed: ServiceUnavailable \(HTTP 503\): .*\); the last observed state stands: Azure Front Door configuration is ready/,
    );
    expect((await whenWarned(hub.client, 'outage', 'AzureReadFailed'))?.note).toContain('ServiceUnavailable (HTTP 503)');
    expect(armWrites(hub)).toBe(0);
    noStackTraces();

    hub.emulator.admin.clearFaults();
    const after = await eventually(
      () => readGateway(hub.client, 'outage'),
      (g) => conditionOf(g, AZURE_DATA_CURRENT_CONDITION)?.status === 'True',
      30_000,
    );
    expect(after.status?.addresses).toEqual(addresses);
    await whenProgrammed(hub, 'outage', ['outage', 'outage-api']);
  });

  it('endpoint deploymentStatus stuck at NotStarted: Programmed from provisioningState, propagation named as informational', async () => {
    await createGateway('stuck');
    const gateway = await whenProgrammed(hub, 'stuck', ['stuck']);
    const programmed = (await programmedOf(hub, 'stuck'))!;
    expect(programmed.reason).toBe('Programmed');
    expect(programmed.message).toContain('deploymentStatus NotStarted');
    expect(programmed.message).toContain('this does not block programming');
    const profile = await profileOf(hub, 'stuck');
    const endpoints = [];
    for await (const endpoint of hub.clients.cdn.afdEndpoints.listByProfile(SCOPE.resourceGroup, profile)) endpoints.push(endpoint);
    expect(endpoints.map((e) => [e.provisioningState, e.deploymentStatus])).toEqual([['Succeeded', 'NotStarted']]);
    expect(gateway.status?.addresses?.[0]?.value).toBe(endpoints[0]?.hostName);
  });

  it('a 403 on DELETE keeps the finalizer with a condition naming identity, scope and role; Orphan then lets the Gateway go', async () => {
    await createGateway('locked');
    await whenProgrammed(hub, 'locked', ['locked']);
    const profile = await profileOf(hub, 'locked');
    hub.emulator.admin.injectFault({ kind: 'status', status: 403, method: 'DELETE', pathPattern: profilePath('locked'), count: 1_000 });
    await hub.client.delete(gatewayPath('locked'));

    const blocked = await eventually(
      () => programmedOf(hub, 'locked'),
      (c) => c?.reason === 'DeleteFailed',
      30_000,
    );
    expect(blocked?.message).toContain(`deleting profile ${profile} failed: AuthorizationFailed (HTTP 403)`);
    expect(blocked?.message).toContain(
      `the test identity lacks access to scope /subscriptions/${SCOPE.subscriptionId}/resourceGroups/${SCOPE.resourceGroup}: assign it the role "Fleet Gateway hub: Front Door"`,
    );
    expect(blocked?.message).toContain(`annotate ${DELETION_POLICY}: Orphan`);
    expect((await whenWarned(hub.client, 'locked', 'DeleteFailed'))?.note).toContain('Fleet Gateway hub: Front Door');
    const deleting = await readGateway(hub.client, 'locked');
    expect(deleting.metadata.deletionTimestamp).toBeDefined();
    expect(deleting.metadata.finalizers).toContain(GATEWAY_FINALIZER);
    noStackTraces();

    // The operator gives up on the Azure side: the Gateway goes, the profile stays as it was (every DELETE was refused).
    await applyObject(hub.client, gatewayPath('locked'), gatewayBody('locked', { [DELETION_POLICY]: 'Orphan' }));
    expect(
      await eventually(
        () => gone(() => readGateway(hub.client, 'locked')),
        (g) => g,
        30_000,
      ),
    ).toBe(true);
    expect(hub.emulator.admin.requestTotal({ method: 'DELETE', status: 403 })).toBeGreaterThanOrEqual(1);
    expect(hub.emulator.admin.requestTotal({ method: 'DELETE' })).toBe(hub.emulator.admin.requestTotal({ method: 'DELETE', status: 403 }));
    expect((await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profile)).provisioningState).toBe('Succeeded');
  });

  it('deletion with the Orphan policy leaves the profile untouched and removes the finalizer, with no Azure write', async () => {
    await createGateway('kept', 'member-2', { [DELETION_POLICY]: 'Orphan' });
    await whenProgrammed(hub, 'kept', ['kept']);
    const profile = await profileOf(hub, 'kept');
    const before = await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profile);
    const writesBefore = armWrites(hub);
    await hub.client.delete(gatewayPath('kept'));
    expect(
      await eventually(
        () => gone(() => readGateway(hub.client, 'kept')),
        (g) => g,
        30_000,
      ),
    ).toBe(true);
    expect(armWrites(hub)).toBe(writesBefore);
    expect(await hub.clients.cdn.profiles.get(SCOPE.resourceGroup, profile)).toEqual(before);
    expect((await gatewayEvents(hub.client, 'kept')).map((e) => e.reason)).toContain('Orphaned');
  });
});
