/**
 * The member's shipped Azure roles (deploy/azure-roles, assigned as assignments.json says) are exactly what its
 * discovery and approval call: the emulator enforces them on the member's managed identity while the real
 * PrivateLinkDiscovery finds a Service's Private Link Service (in the node resource group, and in one a Service names)
 * and approves the hub's connection; then what the identity exercised must equal what its roles grant.
 */
import { emulatorIdentityCredential, rolesAgainstRun, readShippedAssignments, shippedRole, type RoleAssignment } from '@fleet-gateway/azure-emulator';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMemberNetworkClient } from './network-client.js';
import { PrivateLinkDiscovery } from './private-link-discovery.js';
import { SERVICE_ANNOTATIONS } from './service-facts.js';
import { provisionService, requestFromFrontDoor, startMemberBed, type MemberBed } from './testing/index.js';

let bed: MemberBed;
beforeEach(async () => {
  bed = await startMemberBed();
});
afterEach(() => bed.emulator.stop());

/**
 * The member's rows of assignments.json (an auto-approving member's) on this test's scopes: the node resource group,
 * and `rg-shop` for the resource group a Service names with azure-pls-resource-group. Throws for a scope it does not know.
 */
function assignMemberRoles(): RoleAssignment[] {
  const group = (name: string) => `/subscriptions/${bed.settings.subscriptionId}/resourceGroups/${name}`;
  const scopes: Record<string, string> = {
    '{node resource group of the member}': group(bed.settings.resourceGroup),
    'each resource group named by `azure-pls-resource-group`': group('rg-shop'),
  };
  const rows = readShippedAssignments().filter((a) => a.identity === 'member' || a.identity === 'member with auto-approval');
  return rows.map((row) => {
    const scope = scopes[row.e2eScope ?? row.scope];
    if (scope === undefined) throw new Error(`assignments.json gives the member a scope this test does not know: ${row.e2eScope ?? row.scope}`);
    const assignment = { principalId: bed.emulator.managedIdentity.principalId, scope, role: shippedRole(row.role ?? '').definition };
    bed.emulator.admin.assignRole(assignment);
    return assignment;
  });
}

it("the member's shipped roles: discovery and approval with no AuthorizationFailed, exercising every granted action and no other", async () => {
  const assignments = assignMemberRoles();
  expect(assignments.map((a) => a.role.name).sort()).toEqual([
    'Fleet Gateway member: connection approver',
    'Fleet Gateway member: discovery reader',
    'Fleet Gateway member: discovery reader',
  ]);
  // The agent's client, as it builds it, on the emulator's managed identity (checked); the bed's own writers are not.
  const network = createMemberNetworkClient({
    credential: emulatorIdentityCredential(bed.emulator),
    subscriptionId: bed.settings.subscriptionId,
    endpoint: bed.emulator.armEndpoint,
    tlsOptions: { ca: bed.emulator.caCertificate },
    rateLimiter: bed.harness.limiter,
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
  });
  const discovery = new PrivateLinkDiscovery(network, { ttlMs: 60_000 });
  const facts = await provisionService(bed, { name: 'web', uid: '00000001-aaaa-4bbb-8ccc-000000000001' });
  // A Service whose Private Link Service lives in a resource group of the team's (azure-pls-resource-group).
  bed.emulator.admin.createResourceGroup({ subscriptionId: bed.settings.subscriptionId, name: 'rg-shop' });
  const shop = await provisionService(bed, {
    name: 'api',
    uid: '00000002-aaaa-4bbb-8ccc-000000000002',
    annotations: { [SERVICE_ANNOTATIONS.plsResourceGroup]: 'rg-shop' },
  });
  const found = await discovery.discover({ service: facts });
  if (found.state !== 'found') throw new Error(`expected a Private Link Service, got ${found.reason}: ${found.message}`);
  await requestFromFrontDoor(bed, 'fd-1', found.privateLinkService.id, 'fleet-req-1');
  const requests = [{ gateway: 'shop/gw', message: 'fleet-req-1' }];
  const current = await discovery.discover({ service: facts, requests });
  if (current.state !== 'found') throw new Error(`expected a Private Link Service, got ${current.reason}`);
  const approval = await discovery.approve(current, requests);
  expect(approval.failures).toEqual([]);
  expect(approval.approved).toHaveLength(1);
  expect(await discovery.discover({ service: shop, requests })).toMatchObject({
    state: 'found',
    privateLinkService: { id: expect.stringContaining('/resourceGroups/rg-shop/') },
  });

  expect(
    rolesAgainstRun(
      bed.emulator,
      assignments.map((a) => a.role),
    ),
  ).toEqual({ refused: 0, notGranted: [], neverExercised: [] });
}, 60_000);
