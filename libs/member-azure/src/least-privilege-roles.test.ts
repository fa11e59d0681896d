/**
 * The member's shipped Azure roles (deploy/azure-roles, assigned as assignments.json says) are exactly what its
 * discovery and approval call: the emulator enforces them on the member's managed identity while the real
 * PrivateLinkDiscovery finds a Service's Private Link Service and approves the hub's connection; then what the
 * identity exercised must equal what its roles grant.
 */
import { compareWithRoles, emulatorIdentityCredential, readShippedAssignments, shippedRole, type RoleAssignment } from '@fleet-gateway/azure-emulator';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createMemberNetworkClient } from './network-client.js';
import { PrivateLinkDiscovery } from './private-link-discovery.js';
import { provisionService, requestFromFrontDoor, startMemberBed, type MemberBed } from './testing/index.js';

let bed: MemberBed;
beforeEach(async () => {
  bed = await startMemberBed();
});
afterEach(() => bed.emulator.stop());

/** The member's rows of assignments.json that e2e grants (an auto-approving member's), on this test's node resource group. */
function assignMemberRoles(): RoleAssignment[] {
  const nodeGroup = `/subscriptions/${bed.settings.subscriptionId}/resourceGroups/${bed.settings.resourceGroup}`;
  const rows = readShippedAssignments().filter((a) => (a.identity === 'member' || a.identity === 'member with auto-approval') && a.e2eScope !== null);
  return rows.map((row) => {
    if (row.e2eScope !== '{node resource group of the member}') throw new Error(`assignments.json gives the member a scope this test does not know: ${row.e2eScope}`);
    const assignment = { principalId: bed.emulator.managedIdentity.principalId, scope: nodeGroup, role: shippedRole(row.role ?? '').definition };
    bed.emulator.admin.assignRole(assignment);
    return assignment;
  });
}

it("the member's shipped roles: discovery and approval with no AuthorizationFailed, exercising every granted action and no other", async () => {
  const assignments = assignMemberRoles();
  expect(assignments.map((a) => a.role.name).sort()).toEqual(['Fleet Gateway member: connection approver', 'Fleet Gateway member: discovery reader']);
  // The agent's client, as it builds it, on the emulator's managed identity (checked); the bed's own writers are not.
  const network = createMemberNetworkClient({ credential: emulatorIdentityCredential(bed.emulator), subscriptionId: bed.settings.subscriptionId, endpoint: bed.emulator.armEndpoint, tlsOptions: { ca: bed.emulator.caCertificate }, rateLimiter: bed.harness.limiter, retry: { baseDelayMs: 1, maxDelayMs: 5 } });
  const discovery = new PrivateLinkDiscovery(network, { ttlMs: 60_000 });
  const facts = await provisionService(bed, { name: 'web', uid: '00000001-aaaa-4bbb-8ccc-000000000001' });
  const found = await discovery.discover({ service: facts });
  if (found.state !== 'found') throw new Error(`expected a Private Link Service, got ${found.reason}: ${found.message}`);
  await requestFromFrontDoor(bed, 'fd-1', found.privateLinkService.id, 'fleet-req-1');
  const requests = [{ gateway: 'shop/gw', message: 'fleet-req-1' }];
  const current = await discovery.discover({ service: facts, requests });
  if (current.state !== 'found') throw new Error(`expected a Private Link Service, got ${current.reason}`);
  const approval = await discovery.approve(current, requests);
  expect(approval.failures).toEqual([]);
  expect(approval.approved).toHaveLength(1);

  expect(bed.emulator.admin.requestTotal({ status: 403 })).toBe(0);
  const exercised = bed.emulator.admin.exercisedActions(bed.emulator.managedIdentity.principalId);
  expect(compareWithRoles(exercised, assignments.map((a) => a.role))).toEqual({ notGranted: [], neverExercised: [] });
}, 60_000);
