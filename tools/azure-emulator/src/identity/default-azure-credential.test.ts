import { CdnManagementClient } from '@azure/arm-cdn';
import { DefaultAzureCredential } from '@azure/identity';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { start, type RunningEmulator } from '../emulator.js';
import { RawArmClient } from '../raw-arm-client.js';
import { FAST_POLLING, managedIdentityEnvironment, OTHER_CREDENTIAL_VARIABLES, sdkClientOptions, stubCredential } from '../sdk-options.js';
import { RESOURCE_GROUP, SUBSCRIPTION } from '../testing/sdk.js';
import { TOKEN_REQUEST_TYPE } from './managed-identity-server.js';

let now = Date.now();
let emulator: RunningEmulator;

beforeAll(async () => {
  emulator = await start({ lroDelayMs: 0, throttling: false, lroRetryAfterSeconds: 0, armAuthentication: 'issued-tokens', clock: () => now });
  emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: RESOURCE_GROUP });
});
afterAll(async () => {
  vi.unstubAllEnvs();
  await emulator?.stop();
});

/** A token request with the emulator's secret header, another one, or none (null). */
function tokenRequest(query: string, header: string | null = emulator.identityHeader): Promise<Response> {
  return fetch(`${emulator.identityEndpoint}?${query}`, header === null ? {} : { headers: { 'X-IDENTITY-HEADER': header } });
}

describe('DefaultAzureCredential against the emulator', () => {
  it('takes a token from the App Service managed-identity endpoint and calls ARM through @azure/arm-cdn with it', async () => {
    for (const name of OTHER_CREDENTIAL_VARIABLES) vi.stubEnv(name, undefined);
    for (const [name, value] of Object.entries(managedIdentityEnvironment(emulator))) vi.stubEnv(name, value);
    const credential = new DefaultAzureCredential();

    const token = await credential.getToken('https://management.azure.com/.default');
    expect(token.token.split('.')).toHaveLength(3);
    expect(token.expiresOnTimestamp).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const cdn = new CdnManagementClient(credential, SUBSCRIPTION, sdkClientOptions(emulator));
    const profile = await cdn.profiles.beginCreateAndWait(
      RESOURCE_GROUP,
      'fd-identity',
      { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } },
      FAST_POLLING,
    );
    expect(profile.provisioningState).toBe('Succeeded');
    expect(emulator.admin.requestTotal({ resourceType: TOKEN_REQUEST_TYPE, status: 200 })).toBeGreaterThanOrEqual(1);
    expect(emulator.admin.requestTotal({ resourceType: 'Microsoft.Cdn/profiles', method: 'PUT', status: 201 })).toBe(1);
  });
});

describe('managed-identity endpoint (App Service protocol 2019-08-01)', () => {
  const query = 'api-version=2019-08-01&resource=https%3A%2F%2Fmanagement.azure.com';

  it('answers a token with the fields MSAL reads: access_token, expires_on in epoch seconds, resource, token_type', async () => {
    const response = await tokenRequest(query);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, string>;
    expect(body).toMatchObject({ resource: 'https://management.azure.com', token_type: 'Bearer', client_id: expect.any(String) });
    expect(Number(body.expires_on)).toBe(Math.floor(now / 1000) + 24 * 3600);
  });

  it('refuses a request without the secret header, or with another secret, with its error shape', async () => {
    for (const header of [null, 'not-the-secret']) {
      const response = await tokenRequest(query, header);
      expect(response.status).toBe(401);
      expect(await response.json()).toEqual({ statusCode: '401', message: expect.stringContaining('X-IDENTITY-HEADER'), correlationId: expect.any(String) });
    }
  });

  it('refuses another api-version, a missing resource and an identity it does not have', async () => {
    expect((await tokenRequest('api-version=2017-09-01&resource=https%3A%2F%2Fmanagement.azure.com')).status).toBe(400);
    expect((await tokenRequest('api-version=2019-08-01')).status).toBe(400);
    const unknown = await tokenRequest(`${query}&client_id=00000000-0000-0000-0000-000000000000`);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ message: expect.stringContaining('No User Assigned or Delegated Managed Identity found') });
  });
});

describe('ARM with issued-tokens authentication', () => {
  const profiles = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Cdn/profiles?api-version=2024-02-01`;

  async function armWith(token: string) {
    const client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
    try {
      return await client.send('GET', profiles, undefined, { authorization: `Bearer ${token}` });
    } finally {
      client.close();
    }
  }

  async function issuedToken(resource: string): Promise<string> {
    const response = await tokenRequest(`api-version=2019-08-01&resource=${encodeURIComponent(resource)}`);
    return ((await response.json()) as { access_token: string }).access_token;
  }

  it('refuses a token it did not issue, as ARM refuses one Entra ID did not', async () => {
    const stub = new CdnManagementClient(stubCredential, SUBSCRIPTION, sdkClientOptions(emulator));
    await expect(stub.afdProfiles.checkHostNameAvailability(RESOURCE_GROUP, 'fd', { hostName: 'x.example' })).rejects.toMatchObject({
      statusCode: 401,
      code: 'InvalidAuthenticationToken',
    });
    expect(await armWith(`${(await issuedToken('https://management.azure.com')).slice(0, -2)}xx`)).toMatchObject({
      status: 401,
      body: { error: { code: 'InvalidAuthenticationToken', message: 'The access token is invalid.' } },
    });
  });

  it("refuses a token for another audience with ARM's message, and takes ARM's audiences and its own URL", async () => {
    expect(await armWith(await issuedToken('https://vault.azure.net'))).toMatchObject({
      status: 401,
      body: { error: { code: 'InvalidAuthenticationTokenAudience', message: expect.stringContaining("wrong audience or resource 'https://vault.azure.net'") } },
    });
    for (const audience of ['https://management.azure.com/', 'https://management.core.windows.net/', emulator.armEndpoint]) {
      expect(await armWith(await issuedToken(audience))).toMatchObject({ status: 200 });
    }
  });

  it('refuses an expired token', async () => {
    const token = await issuedToken('https://management.azure.com');
    now += 24 * 3600_000 + 1_000;
    try {
      expect(await armWith(token)).toMatchObject({
        status: 401,
        body: { error: { code: 'ExpiredAuthenticationToken', message: expect.stringContaining('is earlier than current UTC time') } },
      });
    } finally {
      now -= 24 * 3600_000 + 1_000;
    }
  });
});
