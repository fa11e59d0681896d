import { ChainedTokenCredential, DefaultAzureCredential, ManagedIdentityCredential, WorkloadIdentityCredential } from '@azure/identity';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AZURE_CREDENTIAL_KINDS, describeAzureCredential, readAzureCredential, type AzureCredentialInputs } from './azure-credential.js';
import { createAzureCredential } from './create-azure-credential.js';

const CLIENT = '11111111-2222-3333-4444-555555555555';
const TENANT = '66666666-7777-8888-9999-000000000000';
const TOKEN_FILE = '/var/run/secrets/azure/tokens/azure-identity-token';
const WEBHOOK_ENVIRONMENT = {
  AZURE_CLIENT_ID: CLIENT,
  AZURE_TENANT_ID: TENANT,
  AZURE_FEDERATED_TOKEN_FILE: TOKEN_FILE,
  AZURE_AUTHORITY_HOST: 'https://login.microsoftonline.com/',
};

function read(inputs: Partial<AzureCredentialInputs>) {
  const errors: string[] = [];
  const choice = readAzureCredential({ kind: 'managed-identity', clientId: undefined, tenantId: undefined, environment: {}, inUse: true, ...inputs }, errors);
  return { choice, errors };
}

describe('readAzureCredential', () => {
  it('workload identity: the client id, tenant and token file of the webhook environment, flags first', () => {
    expect(read({ kind: 'workload-identity', environment: WEBHOOK_ENVIRONMENT })).toEqual({
      choice: { kind: 'workload-identity', clientId: CLIENT, tenantId: TENANT, tokenFile: TOKEN_FILE },
      errors: [],
    });
    const other = '00000000-0000-4000-8000-0000000000c3';
    expect(read({ kind: 'workload-identity', clientId: other, tenantId: other, environment: WEBHOOK_ENVIRONMENT }).choice).toEqual({
      kind: 'workload-identity',
      clientId: other,
      tenantId: other,
      tokenFile: TOKEN_FILE,
    });
  });

  it('workload identity without the token file (or anything else it needs): one error naming the flag, the value and every missing piece', () => {
    expect(read({ kind: 'workload-identity', environment: { AZURE_CLIENT_ID: CLIENT, AZURE_TENANT_ID: TENANT } })).toEqual({
      choice: undefined,
      errors: [
        '--azure-credential=workload-identity is missing AZURE_FEDERATED_TOKEN_FILE, the service account token the workload identity webhook projects (pod label azure.workload.identity/use: "true")',
      ],
    });
    const { errors } = read({ kind: 'workload-identity' });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(
      /^--azure-credential=workload-identity is missing the identity's client id \(--azure-client-id or AZURE_CLIENT_ID\), the tenant \(--azure-tenant-id, tenantId of --cloud-config or AZURE_TENANT_ID\), AZURE_FEDERATED_TOKEN_FILE/,
    );
  });

  it('managed identity: the endpoint the platform names (IDENTITY_ENDPOINT) or IMDS, with a user-assigned client id from the flag or AZURE_CLIENT_ID', () => {
    expect(read({})).toEqual({ choice: { kind: 'managed-identity' }, errors: [] });
    const endpoint = 'http://127.0.0.1:4004/msi/token';
    expect(read({ clientId: CLIENT, environment: { IDENTITY_ENDPOINT: endpoint, IDENTITY_HEADER: 'SECRET' } }).choice).toEqual({
      kind: 'managed-identity',
      clientId: CLIENT,
      tokenEndpoint: endpoint,
    });
    expect(read({ environment: { AZURE_CLIENT_ID: CLIENT } }).choice).toEqual({ kind: 'managed-identity', clientId: CLIENT });
    expect(read({ environment: { MSI_ENDPOINT: 'http://localhost:50342/oauth2/token' } }).choice).toEqual({
      kind: 'managed-identity',
      tokenEndpoint: 'http://localhost:50342/oauth2/token',
    });
  });

  it('managed identity refuses the workload identity environment, with which ManagedIdentityCredential would exchange its token instead', () => {
    const { choice, errors } = read({ environment: WEBHOOK_ENVIRONMENT });
    expect(choice).toBeUndefined();
    expect(errors).toEqual([
      `--azure-credential=managed-identity cannot be used with AZURE_FEDERATED_TOKEN_FILE set ("${TOKEN_FILE}"): ManagedIdentityCredential would exchange that workload identity token instead; choose --azure-credential=workload-identity, or run the pod without the workload identity (label azure.workload.identity/use)`,
    ]);
  });

  it('refuses an unknown kind and a client id that is not a GUID, naming the flag or variable and the value', () => {
    expect(read({ kind: 'default' }).errors).toEqual(['--azure-credential has invalid value "default"; expected one of workload-identity, managed-identity']);
    expect(read({ clientId: 'my-app' }).errors).toEqual([
      '--azure-client-id has invalid value "my-app"; expected a GUID such as 00000000-0000-0000-0000-000000000000',
    ]);
    expect(read({ environment: { AZURE_CLIENT_ID: 'my-app' } }).errors).toEqual([
      'AZURE_CLIENT_ID has invalid value "my-app"; expected a GUID (the client id of the identity --azure-credential=managed-identity uses)',
    ]);
  });

  it('with Azure access off: checks the flags only, not the environment or what the kind needs, and chooses nothing', () => {
    expect(read({ kind: 'workload-identity', inUse: false, environment: { AZURE_CLIENT_ID: 'my-app' } })).toEqual({ choice: undefined, errors: [] });
    expect(read({ kind: 'nonsense', inUse: false }).errors).toHaveLength(1);
    expect(read({ clientId: 'my-app', inUse: false }).errors).toHaveLength(1);
  });
});

describe('createAzureCredential', () => {
  it('constructs exactly the class of the chosen kind, never a chain', () => {
    const workload = createAzureCredential({ kind: 'workload-identity', clientId: CLIENT, tenantId: TENANT, tokenFile: TOKEN_FILE });
    expect(workload).toBeInstanceOf(WorkloadIdentityCredential);
    const managed = createAzureCredential({ kind: 'managed-identity', clientId: CLIENT });
    expect(managed).toBeInstanceOf(ManagedIdentityCredential);
    for (const credential of [workload, managed, createAzureCredential({ kind: 'managed-identity' })]) {
      expect(credential).not.toBeInstanceOf(DefaultAzureCredential);
      expect(credential).not.toBeInstanceOf(ChainedTokenCredential);
    }
  });

  it('whatever the environment holds, a choice is always of the chosen kind, or an error names --azure-credential (no fallback to another identity)', () => {
    const variable = (name: string, value: string) => fc.option(fc.constant([name, value] as const), { nil: undefined });
    const environments = fc
      .tuple(
        variable('AZURE_CLIENT_ID', CLIENT),
        variable('AZURE_TENANT_ID', TENANT),
        variable('AZURE_FEDERATED_TOKEN_FILE', TOKEN_FILE),
        variable('AZURE_CLIENT_SECRET', 'secret'),
        variable('AZURE_USERNAME', 'someone@example.com'),
        variable('IDENTITY_ENDPOINT', 'http://127.0.0.1:4004/msi/token'),
        variable('MSI_ENDPOINT', 'http://127.0.0.1:4005/msi/token'),
      )
      .map((pairs) => Object.fromEntries(pairs.filter((pair) => pair !== undefined)));
    fc.assert(
      fc.property(
        fc.constantFrom(...AZURE_CREDENTIAL_KINDS),
        environments,
        fc.option(fc.constant(CLIENT), { nil: undefined }),
        (kind, environment, clientId) => {
          const { choice, errors } = read({ kind, environment, clientId });
          if (choice === undefined) {
            expect(errors.length).toBeGreaterThan(0);
            expect(errors.every((error) => error.startsWith(`--azure-credential=${kind} `))).toBe(true);
            return;
          }
          expect(errors).toEqual([]);
          expect(choice.kind).toBe(kind);
          expect(createAzureCredential(choice)).toBeInstanceOf(kind === 'workload-identity' ? WorkloadIdentityCredential : ManagedIdentityCredential);
        },
      ),
    );
  });
});

describe('describeAzureCredential', () => {
  it('names the identity that needs the roles, as the chosen credential signs in', () => {
    expect(describeAzureCredential({ kind: 'workload-identity', clientId: CLIENT, tenantId: TENANT, tokenFile: TOKEN_FILE })).toBe(
      `the workload identity with client id ${CLIENT} (tenant ${TENANT})`,
    );
    expect(describeAzureCredential({ kind: 'managed-identity', clientId: CLIENT })).toBe(
      `the user-assigned managed identity with client id ${CLIENT}, through the node's IMDS`,
    );
    expect(describeAzureCredential({ kind: 'managed-identity', tokenEndpoint: 'http://127.0.0.1:4004/msi/token' })).toBe(
      'the managed identity the token endpoint http://127.0.0.1:4004/msi/token gives without a client id (a system-assigned one, or the only user-assigned one)',
    );
  });
});
