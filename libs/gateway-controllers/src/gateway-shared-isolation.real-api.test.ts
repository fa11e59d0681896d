import { customDomainName } from '@fleet-gateway/azure-frontdoor';
import { eventually } from '@fleet-gateway/controller/test-support';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AZURE_PROGRAMMED_CONDITION } from './route-status.js';
import { EdgeProbe, eventsAbout, linesWithStackTraces, programmedOf, whenProgrammed, whenRouteRefused } from './test-support/hub-probes.js';
import {
  applyObject,
  conditionOf,
  exportPath,
  gatewayBody,
  gatewayPath,
  readExport,
  readRoute,
  routeBody,
  routePath,
  startHubWithAgent,
  type HubUnderTest,
  type RuleFixture,
} from './test-support/hub-under-test.js';
import { refuseStatus, whenStatusRefused } from './test-support/status-refusal.js';

// Teams sharing one Gateway: one team's HTTPRoute whose status the API server refuses, or whose AFD resource ARM
// refuses, holds back nothing of another team's.
let hub: HubUnderTest;
let edge: EdgeProbe;
const CUSTOM_DOMAINS = 'Microsoft.Cdn/profiles/customDomains';

beforeAll(async () => {
  ({ hub } = await startHubWithAgent());
  edge = new EdgeProbe(hub);
}, 120_000);
afterAll(async () => {
  await hub?.stop();
  await edge?.close();
});

const backend = (service: string, address: string) => edge.publishServed(service, address);

const rules = (service: string, ...paths: string[]): RuleFixture[] => paths.map((path) => ({ path, backends: [{ name: service }] }));
const ours = (route: Awaited<ReturnType<typeof readRoute>>) => route.status?.parents?.find((p) => p.controllerName === CONTROLLER_NAME);

describe('one team on a shared Gateway holds back no other', { timeout: 120_000 }, () => {
  it('an HTTPRoute whose status the API server refuses is retried alone; another team’s new rule on the same Gateway is served', async () => {
    await refuseStatus(hub.client, 'gateway.networking.k8s.io', 'httproutes', 'frozen-c');
    await backend('frozen-a', '10.6.0.1');
    await backend('frozen-c', '10.6.0.3');
    // team-c's route first, its status frozen before the Gateway it names exists.
    await applyObject(hub.client, routePath('frozen-c'), routeBody('frozen-c', 'frozen', rules('frozen-c', '/c')));
    // The route has no status yet: the probe sends the empty list its schema requires.
    expect(await whenStatusRefused(hub.client, `${routePath('frozen-c')}/status`, true, { parents: [] })).toMatchObject({ statusCode: 403 });
    await applyObject(hub.client, gatewayPath('frozen'), gatewayBody('frozen'));
    await applyObject(hub.client, routePath('frozen-a'), routeBody('frozen-a', 'frozen', rules('frozen-a', '/a')));
    const host = (await whenProgrammed(hub, 'frozen', ['frozen-a'])).status?.addresses?.[0]?.value ?? '';

    // team-c's status write is refused: a Warning Event on its route, no entry, and the refusal is not thrown.
    const events = await eventually(
      () => eventsAbout(hub.client, 'HTTPRoute', 'frozen-c'),
      (es) => es.some((e) => e.reason === 'StatusWriteFailed'),
      30_000,
    );
    expect(events.find((e) => e.reason === 'StatusWriteFailed')?.note).toMatch(
      /the status for Gateway shop\/frozen could not be written \(.*403 Forbidden.*frozen.*\); retrying in \d+ s/,
    );
    expect(ours(await readRoute(hub.client, 'frozen-c'))).toBeUndefined();

    // team-a's new rule reaches Azure and the edge; team-c's rule was programmed too, only its status is missing.
    await applyObject(hub.client, routePath('frozen-a'), routeBody('frozen-a', 'frozen', rules('frozen-a', '/a', '/a2')));
    expect(await edge.until('/a2/page', host, (a) => a.status === 200)).toEqual({ status: 200, body: 'frozen-a@member-1' });
    expect(await edge.until('/c/page', host, (a) => a.status === 200)).toEqual({ status: 200, body: 'frozen-c@member-1' });
    const a = await eventually(
      () => readRoute(hub.client, 'frozen-a'),
      (r) => conditionOf(ours(r), 'Accepted')?.observedGeneration === r.metadata.generation,
      30_000,
    );
    expect(conditionOf(ours(a), 'ResolvedRefs')?.status).toBe('True');
    expect((await programmedOf(hub, 'frozen'))?.status).toBe('True');
    // Retried on its own backoff, not on every reconcile of the Gateway.
    const warnings = hub.logs.lines.filter((l) => l.level === 'warn' && l.object === 'shop/frozen-c' && l.step === 'status');
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.length).toBeLessThan(10);
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
  });

  it('an export whose status the API server refuses is retried alone; the other exports get the frontDoorId and the Gateway its status', async () => {
    await backend('iso-a', '10.6.2.1');
    await backend('iso-x', '10.6.2.2');
    // Frozen once imported (the hub's Fleet side writes export status too).
    await refuseStatus(hub.client, 'networking.fleet.azure.com', 'internalserviceexports', 'shop-iso-x');
    await whenStatusRefused(hub.client, `${exportPath('member-1', 'iso-x')}/status`);
    await applyObject(hub.client, gatewayPath('iso'), gatewayBody('iso'));
    await applyObject(hub.client, routePath('iso'), routeBody('iso', 'iso', [...rules('iso-a', '/a'), ...rules('iso-x', '/x')]));
    const programmed = await whenProgrammed(hub, 'iso', ['iso']);
    const host = programmed.status?.addresses?.[0]?.value ?? '';
    const a = await eventually(
      () => readExport(hub.client, 'member-1', 'iso-a'),
      (e) => (e.status?.frontDoors ?? []).length > 0,
      30_000,
    );
    expect(a.status?.frontDoors?.map((f) => f.gateway)).toEqual(['shop/iso']);
    expect((await readExport(hub.client, 'member-1', 'iso-x')).status?.frontDoors ?? []).toEqual([]);
    const warned = await eventually(
      () => eventsAbout(hub.client, 'InternalServiceExport', 'shop-iso-x', 'fleet-member-member-1'),
      (es) => es.some((e) => e.reason === 'StatusWriteFailed'),
      30_000,
    );
    expect(warned.find((e) => e.reason === 'StatusWriteFailed')?.note).toContain('the status for Gateway shop/iso could not be written');
    expect(await edge.until('/x/page', host, (r) => r.status === 200)).toEqual({ status: 200, body: 'iso-x@member-1' });
  });

  it('an AFD resource ARM refuses for one team: that HTTPRoute names it, the Gateway stays programmed, another team’s new rule is served, and the refusal is not re-sent', async () => {
    // ARM refuses this team's custom domain for a value the plan does not check (an injected 400, every time).
    const refusedHost = 'x-refused.example.com';
    hub.emulator.admin.injectFault({
      kind: 'status',
      status: 400,
      method: 'PUT',
      pathPattern: `/customDomains/${customDomainName(refusedHost)}$`,
      count: 1_000,
    });
    await backend('shared-a', '10.6.1.1');
    await backend('shared-x', '10.6.1.2');
    await applyObject(hub.client, gatewayPath('shared'), gatewayBody('shared'));
    await applyObject(hub.client, routePath('shared-a'), routeBody('shared-a', 'shared', rules('shared-a', '/a')));
    const host = (await whenProgrammed(hub, 'shared', ['shared-a'])).status?.addresses?.[0]?.value ?? '';
    const refusedBefore = hub.emulator.admin.requestTotal({ method: 'PUT', resourceType: CUSTOM_DOMAINS, status: 400 });

    const long = routeBody('shared-x', 'shared', rules('shared-x', '/x'));
    await applyObject(hub.client, routePath('shared-x'), { ...long, spec: { ...long.spec, hostnames: [refusedHost] } });
    const refused = await whenRouteRefused(hub, 'shared-x');
    expect(refused).toMatchObject({ type: AZURE_PROGRAMMED_CONDITION, status: 'False', reason: 'AzureRefused' });
    expect(refused?.message).toMatch(/^Azure refused the create of custom domain [^ ]+: BadRequest \(HTTP 400\): The request is invalid \(injected fault\)/);
    // Route entries are written before the Gateway's status in the same reconcile.
    const gateway = await eventually(
      () => programmedOf(hub, 'shared'),
      (c) => c?.message.includes('refused by Azure') === true,
      30_000,
    );
    expect(gateway).toMatchObject({ status: 'True', reason: 'Programmed' });
    expect(gateway?.message).toContain('owned by HTTPRoute shop/shared-x');

    await applyObject(hub.client, routePath('shared-a'), routeBody('shared-a', 'shared', rules('shared-a', '/a', '/a2')));
    expect(await edge.until('/a2/page', host, (a) => a.status === 200)).toEqual({ status: 200, body: 'shared-a@member-1' });
    expect(conditionOf(ours(await readRoute(hub.client, 'shared-a')), AZURE_PROGRAMMED_CONDITION)).toBeUndefined();
    // The same refused body was sent once, though the Gateway was programmed again for team-a's change.
    expect(hub.emulator.admin.requestTotal({ method: 'PUT', resourceType: CUSTOM_DOMAINS, status: 400 }) - refusedBefore).toBe(1);
    expect(conditionOf(ours(await readRoute(hub.client, 'shared-x')), AZURE_PROGRAMMED_CONDITION)?.reason).toBe('AzureRefused');

    // Fixed, the route is programmed and its condition goes.
    await applyObject(hub.client, routePath('shared-x'), { ...long, spec: { ...long.spec, hostnames: ['x.example.com'] } });
    const fixed = await eventually(
      () => readRoute(hub.client, 'shared-x'),
      (r) => ours(r) !== undefined && conditionOf(ours(r), AZURE_PROGRAMMED_CONDITION) === undefined,
      30_000,
    );
    expect(conditionOf(ours(fixed), AZURE_PROGRAMMED_CONDITION)).toBeUndefined();
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
  });
});
