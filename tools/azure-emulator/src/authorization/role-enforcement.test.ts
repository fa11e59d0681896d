import { readFileSync } from 'node:fs';
import { CdnManagementClient } from '@azure/arm-cdn';
import { ManagedIdentityCredential } from '@azure/identity';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { emulatorIdentityCredential, managedIdentityEnvironment, OTHER_CREDENTIAL_VARIABLES, sdkClientOptions } from '../sdk-options.js';
import { createInternalLoadBalancer, createPrivateLinkService } from '../testing/network-fixtures.js';
import { cdnId, FAST_POLLING, RESOURCE_GROUP, startTestBed, SUBSCRIPTION, type TestBed } from '../testing/sdk.js';
import { actionMatches, parseRoleDefinition, type RoleDefinition } from './role-definition.js';

let bed: TestBed;
/** The SDK client as the agents build it: tokens from the emulator's managed identity, whose object id is checked. */
let cdn: CdnManagementClient;
let principal: string;
const group = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}`;
const role = (name: string, actions: string[], notActions: string[] = []): RoleDefinition => ({ name, actions, notActions });
const PROFILE = { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } };

beforeEach(async () => {
  bed = await startTestBed({ lroDelayMs: 20 });
  cdn = new CdnManagementClient(emulatorIdentityCredential(bed.emulator), SUBSCRIPTION, sdkClientOptions(bed.emulator));
  principal = bed.emulator.managedIdentity.principalId;
});
afterEach(async () => {
  vi.unstubAllEnvs();
  await bed.emulator.stop();
});

describe('role assignments on the ARM endpoint', () => {
  it('checks nobody while no role is assigned: the managed identity and a foreign token both work', async () => {
    await cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd', PROFILE, FAST_POLLING);
    await bed.cdn.profiles.get(RESOURCE_GROUP, 'fd');
    expect(bed.emulator.admin.exercisedActions(principal)).toEqual([]);
  });

  it("refuses an action no role grants with ARM's 403 AuthorizationFailed naming the client, the action and the scope", async () => {
    bed.emulator.admin.assignRole({ principalId: principal, scope: group, role: role('reader', ['Microsoft.Cdn/profiles/read']) });
    await expect(cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd', PROFILE, FAST_POLLING)).rejects.toMatchObject({
      statusCode: 403,
      code: 'AuthorizationFailed',
      message: `The client '${principal}' with object id '${principal}' does not have authorization to perform action 'Microsoft.Cdn/profiles/write' over scope '${cdnId('profiles', 'fd')}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
    });
    // Refused before the provider saw it: nothing was created. A principal without assignments is not checked.
    await expect(bed.cdn.profiles.get(RESOURCE_GROUP, 'fd')).rejects.toMatchObject({ statusCode: 404 });
    expect((await cdn.profiles.listByResourceGroup(RESOURCE_GROUP).next()).done).toBe(true);
    expect(bed.emulator.admin.exercisedActions(principal)).toEqual(['Microsoft.Cdn/profiles/read', 'Microsoft.Cdn/profiles/write']);
  });

  it('grants at the assigned scope and below only, honours NotActions and wildcards, and needs the operation results to poll', async () => {
    bed.emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: 'other' });
    bed.emulator.admin.assignRole({ principalId: principal, scope: group, role: role('cdn', ['Microsoft.Cdn/profiles/*'], ['Microsoft.Cdn/profiles/delete']) });
    // The write is granted; its long-running operation is polled, which the role does not grant.
    await expect(cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd', PROFILE, FAST_POLLING)).rejects.toMatchObject({
      statusCode: 403,
      message: expect.stringContaining(`perform action 'Microsoft.Cdn/operationresults/read' over scope '${cdnId('profiles', 'fd').toLowerCase()}'`),
    });
    bed.emulator.admin.assignRole({ principalId: principal, scope: group, role: role('results', ['Microsoft.Cdn/operationresults/*']) });
    await cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd2', PROFILE, FAST_POLLING);
    await expect(cdn.profiles.beginDeleteAndWait(RESOURCE_GROUP, 'fd2', FAST_POLLING)).rejects.toMatchObject({
      statusCode: 403,
      message: expect.stringContaining("'Microsoft.Cdn/profiles/delete'"),
    });
    await expect(cdn.profiles.beginCreateAndWait('other', 'fd', PROFILE, FAST_POLLING)).rejects.toMatchObject({
      statusCode: 403,
      message: expect.stringContaining(`over scope '/subscriptions/${SUBSCRIPTION}/resourceGroups/other/providers/Microsoft.Cdn/profiles/fd'`),
    });
  });

  it('maps a POST to its /action, and checks read access to the Private Link Service an origin names (LinkedAuthorizationFailed)', async () => {
    await createInternalLoadBalancer(bed, 'lb', ['fe']);
    const pls = await createPrivateLinkService(bed, 'pls', 'lb', 'fe');
    await bed.cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd', PROFILE, FAST_POLLING);
    await bed.cdn.afdOriginGroups.beginCreateAndWait(
      RESOURCE_GROUP,
      'fd',
      'og',
      { loadBalancingSettings: { sampleSize: 4, successfulSamplesRequired: 3 } },
      FAST_POLLING,
    );
    await bed.cdn.afdCustomDomains.beginCreateAndWait(
      RESOURCE_GROUP,
      'fd',
      'cd',
      { hostName: 'shop.example.com', tlsSettings: { certificateType: 'ManagedCertificate' } },
      FAST_POLLING,
    );
    const cdnRole = role('cdn', [
      'Microsoft.Cdn/operationresults/*',
      'Microsoft.Cdn/profiles/origingroups/origins/*',
      'Microsoft.Cdn/profiles/customdomains/*/action',
    ]);
    bed.emulator.admin.assignRole({ principalId: principal, scope: group, role: cdnRole });
    await cdn.afdCustomDomains.beginRefreshValidationTokenAndWait(RESOURCE_GROUP, 'fd', 'cd', FAST_POLLING);
    const origin = {
      hostName: '10.0.0.4',
      sharedPrivateLinkResource: { privateLink: { id: pls.id as string }, privateLinkLocation: 'eastus', requestMessage: 'm' },
    };
    await expect(cdn.afdOrigins.beginCreateAndWait(RESOURCE_GROUP, 'fd', 'og', 'o', origin, FAST_POLLING)).rejects.toMatchObject({
      statusCode: 403,
      code: 'LinkedAuthorizationFailed',
      message: `The client '${principal}' with object id '${principal}' has permission to perform action 'Microsoft.Cdn/profiles/originGroups/origins/write' on scope '${cdnId('profiles', 'fd', 'originGroups', 'og', 'origins', 'o')}'; however, it does not have permission to perform action(s) 'Microsoft.Network/privateLinkServices/read' on the linked scope(s) '${pls.id}' or the linked scope(s) are invalid.`,
    });
    bed.emulator.admin.assignRole({ principalId: principal, scope: pls.id as string, role: role('pls', ['Microsoft.Network/privateLinkServices/read']) });
    await cdn.afdOrigins.beginCreateAndWait(RESOURCE_GROUP, 'fd', 'og', 'o', origin, FAST_POLLING);
    // An origin without Private Link names nothing else.
    await bed.cdn.afdOriginGroups.beginCreateAndWait(
      RESOURCE_GROUP,
      'fd',
      'og2',
      { loadBalancingSettings: { sampleSize: 4, successfulSamplesRequired: 3 } },
      FAST_POLLING,
    );
    await cdn.afdOrigins.beginCreateAndWait(RESOURCE_GROUP, 'fd', 'og2', 'public', { hostName: 'shop.example.net' }, FAST_POLLING);
    expect(bed.emulator.admin.exercisedActions(principal)).toEqual([
      'Microsoft.Cdn/operationresults/read',
      'Microsoft.Cdn/profiles/customDomains/refreshValidationToken/action',
      // The SDK reads the resource when its operation ends.
      'Microsoft.Cdn/profiles/originGroups/origins/read',
      'Microsoft.Cdn/profiles/originGroups/origins/write',
      'Microsoft.Network/privateLinkServices/read',
    ]);
  });

  it('checks the principal whichever credential asked for its token: ManagedIdentityCredential with the client id', async () => {
    for (const name of OTHER_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    for (const [name, value] of Object.entries(managedIdentityEnvironment(bed.emulator))) vi.stubEnv(name, value);
    const credential = new ManagedIdentityCredential({ clientId: bed.emulator.managedIdentity.clientId });
    const client = new CdnManagementClient(credential, SUBSCRIPTION, sdkClientOptions(bed.emulator));
    bed.emulator.admin.assignRole({ principalId: principal, scope: group, role: role('reader', ['Microsoft.Cdn/profiles/read']) });
    await expect(client.profiles.beginCreateAndWait(RESOURCE_GROUP, 'fd', PROFILE, FAST_POLLING)).rejects.toMatchObject({
      statusCode: 403,
      message: expect.stringContaining(`The client '${principal}'`),
    });
    expect(bed.emulator.admin.exercisedActions(principal)).toEqual(['Microsoft.Cdn/profiles/write']);
  });

  it('takes role assignments from the options and over the admin API; cleared, nobody is checked again', async () => {
    const definition = JSON.parse(readFileSync(new URL('../../../../deploy/azure-roles/hub-gateway-waf-reader.json', import.meta.url), 'utf8')) as unknown;
    const admin = (method: string, path: string, body: unknown) =>
      fetch(`${bed.emulator.admin.url}${path}`, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    expect(await admin('POST', '/role-assignments', { principalId: principal, scope: group, roleDefinition: { Name: 'empty', Actions: [] } })).toMatchObject({
      status: 400,
      body: { error: { code: 'InvalidRoleDefinition', message: "The role definition 'empty' grants no action ('Actions' is empty)." } },
    });
    expect(await admin('POST', '/role-assignments', { principalId: principal, scope: group, roleDefinition: definition })).toMatchObject({ status: 201 });
    await expect(cdn.profiles.get(RESOURCE_GROUP, 'fd')).rejects.toMatchObject({ statusCode: 403 });
    expect(await admin('POST', '/role-assignments/exercised', { principalId: principal })).toEqual({ status: 200, body: ['Microsoft.Cdn/profiles/read'] });
    expect((await admin('DELETE', '/role-assignments', {})).status).toBe(200);
    await expect(cdn.profiles.get(RESOURCE_GROUP, 'fd')).rejects.toMatchObject({ statusCode: 404 });

    const configured = await startTestBed({ roleAssignments: [{ principalId: principal, scope: group, role: parseRoleDefinition(definition) }] });
    try {
      const client = new CdnManagementClient(emulatorIdentityCredential(configured.emulator), SUBSCRIPTION, sdkClientOptions(configured.emulator));
      await expect(client.profiles.get(RESOURCE_GROUP, 'fd')).rejects.toMatchObject({ statusCode: 403 });
    } finally {
      await configured.emulator.stop();
    }
  });
});

describe('Azure action patterns', () => {
  it('match case-insensitively, with * spanning any characters, and nothing else', () => {
    expect(actionMatches('Microsoft.Cdn/profiles/*', 'microsoft.cdn/Profiles/afdEndpoints/routes/write')).toBe(true);
    expect(actionMatches('Microsoft.Cdn/profiles/*/read', 'Microsoft.Cdn/profiles/origingroups/origins/read')).toBe(true);
    expect(actionMatches('Microsoft.Cdn/profiles/read', 'Microsoft.Cdn/profiles/readx')).toBe(false);
    expect(actionMatches('Microsoft.Cdn/profiles/*/read', 'Microsoft.Cdn/profiles/write')).toBe(false);
    expect(actionMatches('Microsoft.Cdn/profiles.read', 'Microsoft.Cdn/profilesXread')).toBe(false);
  });
});
