import { edgeRequest, startBackend, type Backend } from '@fleet-gateway/azure-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { customDomainName } from '../plan/afd-names.js';
import { TerminalRefusals } from './terminal-refusals.js';
import { buildGateway, type BackendFixture, type RouteFixture } from '../testing/gateway-builder.js';
import { reconcile, TEST_SCOPE, useHarness } from '../testing/emulator-harness.js';

const started: Backend[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((b) => b.close()));
});

const h = useHarness();

/** The backend behind `address`: it answers `{"backend":"<name>"}`. */
async function serve(address: string, name: string): Promise<void> {
  const backend = await startBackend(name);
  started.push(backend);
  h().emulator.admin.mapAddress(address, 8080, { host: '127.0.0.1', port: backend.port });
}

async function edgeGet(path: string, host: string): Promise<{ status: number; body: string }> {
  const { status, body } = await edgeRequest(h().emulator.edgeUrl, host, path);
  return { status, body };
}

const backends: BackendFixture[] = [
  { name: 'a', clusters: [{ name: 'member-1', address: '10.1.0.10' }] },
  { name: 'b', clusters: [{ name: 'member-1', address: '10.1.0.20' }] },
  { name: 'c', clusters: [{ name: 'member-1', address: '10.1.0.30' }] },
];
/** 70 characters: more than the 64 an AFD managed certificate takes, so ARM refuses the custom domain (400). */
const LONG_HOST = `${'c'.repeat(58)}.example.com`;
const teamA = (paths: string[]): RouteFixture => ({ name: 'team-a', rules: paths.map((p) => ({ paths: [p], backends: [{ name: 'a' }] })) });
const teamB: RouteFixture = { name: 'team-b', rules: [{ paths: ['/b'], backends: [{ name: 'b' }] }] };
const teamC = (host: string): RouteFixture => ({ name: 'team-c', hostnames: [host], rules: [{ paths: ['/c'], backends: [{ name: 'c' }] }] });
const CUSTOM_DOMAINS = 'Microsoft.Cdn/profiles/customDomains';

describe('one team’s resource refused by ARM', () => {
  it('holds back only that team: another team’s new rule is created and served, a third team’s withdrawal is applied, and the refusal names its route', async () => {
    const { emulator } = h();
    await serve('10.1.0.10', 'a');
    await serve('10.1.0.20', 'b');
    await serve('10.1.0.30', 'c');
    const first = await reconcile(h(), buildGateway({ backends, routes: [teamA(['/a']), teamB] }));
    expect(first.failures).toEqual([]);
    const host = first.endpointHostName as string;

    expect(LONG_HOST).toHaveLength(70);
    const refusals = new TerminalRefusals();
    const edited = buildGateway({ backends, routes: [teamA(['/a', '/a2']), teamC(LONG_HOST)] });
    const report = await reconcile(h(), edited, { refusals });
    expect(report.failures.map((f) => [f.action, f.ref.kind, f.failure.status, f.failure.code, f.owners])).toEqual([
      ['create', 'customDomain', 400, 'BadRequest', [{ kind: 'HTTPRoute', namespace: 'store', name: 'team-c' }]],
    ]);
    expect(report.failures[0]?.failure.cause).toContain('an AFD managed certificate supports at most 64');
    // The Gateway stays programmed for every other team; the message names the refused resource and its route.
    expect([report.programmed, report.reason, report.outcome.type]).toEqual([true, 'Programmed', 'terminal']);
    expect(report.message).toContain(`create of custom domain ${customDomainName(LONG_HOST)} failed: BadRequest (HTTP 400)`);
    expect(report.message).toContain('owned by HTTPRoute store/team-c');
    // Only team-c's route waits for its domain.
    expect(report.resources.filter((r) => r.action === 'skipped').map((r) => [r.kind, r.provenance.map((s) => s.name)])).toEqual([['route', ['team-c']]]);
    expect(
      report.resources
        .filter((r) => r.action === 'deleted')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['originGroup', 'route']);

    await emulator.admin.whenPropagated();
    expect(await edgeGet('/a2/x', host)).toEqual({ status: 200, body: '{"backend":"a"}' });
    expect(await edgeGet('/a/x', host)).toEqual({ status: 200, body: '{"backend":"a"}' });
    expect((await edgeGet('/b/x', host)).body).not.toContain('"b"');
  });

  it('a terminal refusal is not sent again while the body is the same; a changed body is sent', async () => {
    const refusals = new TerminalRefusals();
    const edited = buildGateway({ backends, routes: [teamA(['/a']), teamC(LONG_HOST)] });
    await reconcile(h(), edited, { refusals });
    expect(h().emulator.admin.requestTotal({ method: 'PUT', resourceType: CUSTOM_DOMAINS, status: 400 })).toBe(1);

    const again = await reconcile(h(), edited, { refusals });
    expect(h().emulator.admin.requestTotal({ method: 'PUT', resourceType: CUSTOM_DOMAINS })).toBe(1);
    expect(again.failures.map((f) => [f.ref.kind, f.recalled, f.failure.code, f.owners.map((o) => o.name)])).toEqual([
      ['customDomain', true, 'BadRequest', ['team-c']],
    ]);
    expect(again.message).toContain('refused before for this exact body; not sent again until it changes');

    const fixed = await reconcile(h(), buildGateway({ backends, routes: [teamA(['/a']), teamC('c.example.com')] }), { refusals });
    expect(fixed.failures).toEqual([]);
    expect(
      h().emulator.admin.requestTotal({ method: 'PUT', resourceType: CUSTOM_DOMAINS, status: 201 }) +
        h().emulator.admin.requestTotal({ method: 'PUT', resourceType: CUSTOM_DOMAINS, status: 200 }),
    ).toBe(1);
    expect(refusals.size).toBe(0);
  });

  it('with a WAF policy, the security policy waiting for a refused domain keeps the Gateway pending: no domain is reported served without it', async () => {
    const waf = h().emulator.admin.createWafPolicy({
      subscriptionId: TEST_SCOPE.subscriptionId,
      resourceGroup: 'waf',
      name: 'edgePolicy',
      sku: 'Premium_AzureFrontDoor',
    });
    await reconcile(h(), buildGateway({ backends, wafPolicyId: waf, routes: [teamA(['/a'])] }));
    const report = await reconcile(h(), buildGateway({ backends, wafPolicyId: waf, routes: [teamA(['/a']), teamC(LONG_HOST)] }));
    expect(report.failures.map((f) => [f.ref.kind, f.owners.map((o) => o.name)])).toEqual([['customDomain', ['team-c']]]);
    expect(
      report.resources
        .filter((r) => r.action === 'skipped')
        .map((r) => r.kind)
        .sort(),
    ).toEqual(['route', 'securityPolicy']);
    expect([report.programmed, report.reason]).toEqual([false, 'Pending']);
    expect(report.message).toMatch(/security policy [^ ]+ waits: not attempted: create of custom domain [^ ]+ failed \(BadRequest/);
  });

  it('without a remembered refusal the same body is sent again (transient failures and a new process retry as before)', async () => {
    const edited = buildGateway({ backends, routes: [teamA(['/a']), teamC(LONG_HOST)] });
    await reconcile(h(), edited);
    await reconcile(h(), edited);
    expect(h().emulator.admin.requestTotal({ method: 'PUT', resourceType: CUSTOM_DOMAINS, status: 400 })).toBe(2);
  });
});
