/**
 * The hub's shipped Azure roles (deploy/azure-roles, assigned as assignments.json says) are exactly what its Front
 * Door code calls: the emulator enforces them on the hub's managed identity while the real reconcile and delete
 * paths program a Gateway with Private Link origins, a WAF policy, a custom domain and its token refresh, rule sets,
 * and withdraw each of them; then what the identity exercised must equal what its roles grant.
 */
import { emulatorIdentityCredential, rolesAgainstRun, readShippedAssignments, shippedRole, type RoleAssignment } from '@fleet-gateway/azure-emulator';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { profileName } from '../plan/afd-names.js';
import { createFrontDoorClients } from '../clients/arm-clients.js';
import { deleteFrontDoor } from './delete-front-door.js';
import { buildGateway, type GatewayFixture } from '../testing/gateway-builder.js';
import { reconcile, reconcileOptions, startHarness, TEST_SCOPE, type Harness } from '../testing/emulator-harness.js';
import { approveConnection, createPrivateLinkService, memberNetwork } from '../testing/private-link-service.js';

const redirect = (from: string, to: string) => ({
  paths: [from],
  backends: [],
  filters: [{ type: 'RequestRedirect' as const, scheme: 'https' as const, path: to, statusCode: 301 as const }],
});
const setHeaders = (count: number) => ({
  paths: ['/headers'],
  backends: [{ name: 'web' }],
  filters: [{ type: 'RequestHeaderModifier' as const, set: Array.from({ length: count }, (_, i) => ({ name: `x-h${i}`, value: '1' })), add: [], remove: [] }],
});
const group = (name: string) => `/subscriptions/${TEST_SCOPE.subscriptionId}/resourceGroups/${name}`;

let stub: Harness;
/** The same emulator, with clients built as the hub builds them but on the emulator's managed identity (checked). */
let hub: Harness;

beforeEach(async () => {
  // Operations that run for a moment: the hub polls them, as it does on Azure.
  stub = await startHarness({ emulator: { lroDelayMs: 5, lroRetryAfterSeconds: 0 } });
  const clients = createFrontDoorClients({
    credential: emulatorIdentityCredential(stub.emulator),
    subscriptionId: TEST_SCOPE.subscriptionId,
    endpoint: stub.emulator.armEndpoint,
    tlsOptions: { ca: stub.emulator.caCertificate },
    rateLimiter: stub.limiter,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  hub = { ...stub, clients };
});
afterEach(() => stub.emulator.stop());

/** The hub's rows of assignments.json, on this test's scopes; throws for a scope placeholder it does not know. */
function assignHubRoles(wafPolicyId: string): RoleAssignment[] {
  const scopes: Record<string, string> = {
    '{AFD resource group}': group(TEST_SCOPE.resourceGroup),
    '{WAF policy}': wafPolicyId,
    '{node resource group of each member}': group('mc-member-1'),
  };
  const rows = readShippedAssignments().filter((a) => a.identity === 'hub');
  expect(rows.every((a) => a.role !== undefined && a.e2eScope !== null)).toBe(true);
  return rows.map((row) => {
    const scope = scopes[row.e2eScope ?? ''];
    if (scope === undefined) throw new Error(`assignments.json gives the hub a scope this test does not know: ${row.e2eScope}`);
    const assignment = { principalId: stub.emulator.managedIdentity.principalId, scope, role: shippedRole(row.role ?? '').definition };
    stub.emulator.admin.assignRole(assignment);
    return assignment;
  });
}

describe("the hub's shipped roles against its Front Door calls", () => {
  it('program, refresh, withdraw and delete a Gateway with no AuthorizationFailed, exercising every granted action and no other', async () => {
    const network = memberNetwork(stub.emulator, 'member-1');
    const pls = await createPrivateLinkService(network, 'web');
    const wafPolicyId = stub.emulator.admin.createWafPolicy({
      subscriptionId: TEST_SCOPE.subscriptionId,
      resourceGroup: 'waf',
      name: 'edge',
      sku: 'Premium_AzureFrontDoor',
    });
    const assignments = assignHubRoles(wafPolicyId);

    const full: GatewayFixture = {
      name: 'shop',
      sku: 'Premium_AzureFrontDoor',
      wafPolicyId,
      backends: [
        { name: 'web', clusters: [{ name: 'member-1', address: pls.address, privateLink: { state: 'Approved', requestMessage: 'fleet:shop' } }] },
        { name: 'api', clusters: [{ name: 'member-2' }, { name: 'member-3' }] },
        { name: 'legacy', clusters: [{ name: 'member-2' }] },
      ],
      routes: [
        { name: 'shop', hostnames: ['shop.example.com'], rules: [{ backends: [{ name: 'web' }] }] },
        { name: 'api', rules: [{ paths: ['/api'], backends: [{ name: 'api' }] }] },
        { name: 'headers', rules: [setHeaders(6)] },
        { name: 'old', rules: [redirect('/old', '/new'), redirect('/older', '/new')] },
        { name: 'moved', rules: [redirect('/moved', '/here')] },
        { name: 'legacy', rules: [{ paths: ['/legacy'], backends: [{ name: 'legacy' }] }] },
      ],
    };
    const first = await reconcile(hub, buildGateway(full));
    expect(first.failures).toEqual([]);
    await approveConnection(network, 'pls-web', 'fleet:shop');

    // A token due to expire is refreshed (refreshValidationToken).
    const expires = Date.parse(first.customDomains[0]?.expirationDate ?? '');
    const refreshed = await reconcile(hub, buildGateway(full), { now: () => expires - 3600_000 });
    expect(refreshed.failures).toEqual([]);
    expect(refreshed.customDomains[0]?.validationToken).not.toBe(first.customDomains[0]?.validationToken);

    // An endpoint of this Gateway's that it no longer plans (its tags say whose it is) is removed.
    const profile = profileName(buildGateway(full).gateway);
    const planned = await stub.clients.cdn.afdEndpoints.listByProfile(TEST_SCOPE.resourceGroup, profile).next();
    await stub.clients.cdn.afdEndpoints.beginCreateAndWait(
      TEST_SCOPE.resourceGroup,
      profile,
      'fgw-stray',
      { location: 'global', tags: planned.value?.tags ?? {} },
      { updateIntervalInMs: 5 },
    );
    // Withdrawn: the WAF policy (security policy), the hostname (custom domain), the redirect (rule set and rule), the
    // moved route (route, rule set), the legacy route and backend (route, origin group), headers' second rule (six header actions take two, one takes one) and one of api's clusters (origin); web keeps its
    // Private Link origin.
    const fewer: GatewayFixture = {
      ...full,
      wafPolicyId: undefined,
      backends: [full.backends[0]!, { name: 'api', clusters: [{ name: 'member-2' }] }],
      routes: [
        { name: 'shop', rules: [{ backends: [{ name: 'web' }] }] },
        full.routes[1]!,
        { name: 'headers', rules: [setHeaders(1)] },
        { name: 'old', rules: [redirect('/old', '/new')] },
      ],
    };
    const withdrawn = await reconcile(hub, buildGateway(fewer));
    expect(withdrawn.failures).toEqual([]);
    expect([...new Set(withdrawn.resources.filter((r) => r.action === 'deleted').map((r) => r.kind))].sort()).toEqual([
      'customDomain',
      'endpoint',
      'origin',
      'originGroup',
      'route',
      'rule',
      'ruleSet',
      'securityPolicy',
    ]);

    expect((await deleteFrontDoor(hub.clients, buildGateway(fewer).gateway, reconcileOptions())).result).toBe('deleted');
    expect(
      rolesAgainstRun(
        stub.emulator,
        assignments.map((a) => a.role),
      ),
    ).toEqual({ refused: 0, notGranted: [], neverExercised: [] });
  }, 60_000);
});
