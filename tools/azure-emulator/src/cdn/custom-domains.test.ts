import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restErrorOf } from '../testing/errors.js';
import { FAST_POLLING, RESOURCE_GROUP, cdnId, startTestBed, type TestBed } from '../testing/sdk.js';

const RG = RESOURCE_GROUP;
const MANAGED = { certificateType: 'ManagedCertificate', minimumTlsVersion: 'TLS12' } as const;
let bed: TestBed;
// Operations run until the test ends them, so the states a domain passes through can be read.
beforeAll(async () => {
  bed = await startTestBed({ lroDelayMs: 600_000 });
  const profile = bed.cdn.profiles.beginCreate(RG, 'fd', { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } }, FAST_POLLING);
  await waitFor(() => bed.emulator.admin.finishOperations() > 0);
  await (await profile).pollUntilDone();
});
afterAll(() => bed.emulator.stop());

async function waitFor(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function createDomain(
  name: string,
  hostName: string,
  profile = 'fd',
  tlsSettings: { certificateType: 'ManagedCertificate' | 'CustomerCertificate' } = MANAGED,
): Promise<void> {
  const poller = await bed.cdn.afdCustomDomains.beginCreate(RG, profile, name, { hostName, tlsSettings }, FAST_POLLING);
  bed.emulator.admin.finishOperations();
  await poller.pollUntilDone();
}

describe('AFD custom domain validation', () => {
  it('is Submitting with an empty token while its PUT runs, then Pending with a token that expires in 7 days', async () => {
    const poller = await bed.cdn.afdCustomDomains.beginCreate(RG, 'fd', 'www', { hostName: 'www.contoso.example', tlsSettings: MANAGED }, FAST_POLLING);
    const submitting = await bed.cdn.afdCustomDomains.get(RG, 'fd', 'www');
    expect([submitting.domainValidationState, submitting.validationProperties?.validationToken]).toEqual(['Submitting', '']);
    bed.emulator.admin.finishOperations();
    const pending = await poller.pollUntilDone();
    expect(pending.domainValidationState).toBe('Pending');
    expect(pending.validationProperties?.validationToken).toMatch(/^[0-9a-f]{32}$/);
    const expires = Date.parse(String(pending.validationProperties?.expirationDate));
    expect(expires - Date.now()).toBeGreaterThan(7 * 24 * 3600 * 1000 - 60_000);
  });

  it('refreshValidationToken: RefreshingValidationToken while it runs, then Pending with a new token and expiry', async () => {
    await createDomain('refresh', 'refresh.contoso.example');
    const before = await bed.cdn.afdCustomDomains.get(RG, 'fd', 'refresh');
    const poller = await bed.cdn.afdCustomDomains.beginRefreshValidationToken(RG, 'fd', 'refresh', FAST_POLLING);
    expect((await bed.cdn.afdCustomDomains.get(RG, 'fd', 'refresh')).domainValidationState).toBe('RefreshingValidationToken');
    bed.emulator.admin.finishOperations();
    await poller.pollUntilDone();
    const after = await bed.cdn.afdCustomDomains.get(RG, 'fd', 'refresh');
    expect(after.domainValidationState).toBe('Pending');
    expect(after.validationProperties?.validationToken).toMatch(/^[0-9a-f]{32}$/);
    expect(after.validationProperties?.validationToken).not.toBe(before.validationProperties?.validationToken);
  });

  it('the admin API sets every state of the spec and refuses one the spec does not have', async () => {
    await createDomain('states', 'states.contoso.example');
    const id = cdnId('profiles', 'fd', 'customDomains', 'states');
    for (const state of ['Rejected', 'TimedOut', 'PendingRevalidation', 'InternalError', 'Unknown', 'Approved']) {
      bed.emulator.admin.setCustomDomainValidationState(id, state);
      expect((await bed.cdn.afdCustomDomains.get(RG, 'fd', 'states')).domainValidationState).toBe(state);
    }
    expect(() => bed.emulator.admin.setCustomDomainValidationState(id, 'Validated')).toThrow(/'state' must be one of Unknown, Submitting/);
  });

  it('refuses a TLS 1.0 minimum on create and on update, naming the field and the allowed value', async () => {
    const created = await restErrorOf(
      bed.cdn.afdCustomDomains.beginCreate(
        RG,
        'fd',
        'old',
        { hostName: 'old.contoso.example', tlsSettings: { certificateType: 'ManagedCertificate', minimumTlsVersion: 'TLS10' } },
        FAST_POLLING,
      ),
    );
    expect([created.statusCode, created.code]).toEqual([400, 'BadRequest']);
    expect(created.message).toContain("'properties.tlsSettings.minimumTlsVersion' 'TLS10' is no longer supported");
    await createDomain('kept', 'kept.contoso.example');
    const updated = await restErrorOf(
      bed.cdn.afdCustomDomains.beginUpdate(
        RG,
        'fd',
        'kept',
        { tlsSettings: { certificateType: 'ManagedCertificate', minimumTlsVersion: 'TLS10' } },
        FAST_POLLING,
      ),
    );
    expect([updated.statusCode, updated.message]).toEqual([400, expect.stringContaining("use 'TLS12'")]);
    expect((await bed.cdn.afdCustomDomains.get(RG, 'fd', 'kept')).tlsSettings?.minimumTlsVersion).toBe('TLS12');
  });

  it('a managed certificate takes host names up to 64 characters; a wildcard domain may have one', async () => {
    const long = `${'a'.repeat(50)}.contoso.example`;
    const error = await restErrorOf(bed.cdn.afdCustomDomains.beginCreate(RG, 'fd', 'long', { hostName: long, tlsSettings: MANAGED }, FAST_POLLING));
    expect([error.statusCode, error.message]).toEqual([
      400,
      `Host name '${long}' is 66 characters long; an AFD managed certificate supports at most 64. Use 'CustomerCertificate'.`,
    ]);
    await createDomain('wild', '*.apps.contoso.example');
    expect((await bed.cdn.afdCustomDomains.get(RG, 'fd', 'wild')).domainValidationState).toBe('Pending');
  });

  it('a host name validated in one profile cannot be added to another (nor a wildcard over it, nor a first-level subdomain under a wildcard) until it is gone there', async () => {
    const second = bed.cdn.profiles.beginCreate(RG, 'fd2', { location: 'global', sku: { name: 'Standard_AzureFrontDoor' } }, FAST_POLLING);
    await waitFor(() => bed.emulator.admin.finishOperations() > 0);
    await (await second).pollUntilDone();
    await createDomain('held', 'held.fabrikam.example');
    await createDomain('wild-held', '*.apps.fabrikam.example');
    // Pending in the first profile: the second may add it too (AFD refuses only a validated one).
    await createDomain('held', 'held.fabrikam.example', 'fd2');
    await bed.cdn.afdCustomDomains.beginDelete(RG, 'fd2', 'held').then((p) => (bed.emulator.admin.finishOperations(), p.pollUntilDone()));
    for (const name of ['held', 'wild-held']) bed.emulator.admin.validateCustomDomain(cdnId('profiles', 'fd', 'customDomains', name));

    for (const hostName of ['held.fabrikam.example', 'HELD.fabrikam.example', 'shop.apps.fabrikam.example', '*.apps.fabrikam.example']) {
      const error = await restErrorOf(bed.cdn.afdCustomDomains.beginCreate(RG, 'fd2', 'copy', { hostName, tlsSettings: MANAGED }, FAST_POLLING));
      expect([hostName, error.statusCode, error.code, error.message]).toEqual([
        hostName,
        409,
        'Conflict',
        "We couldn't create your custom domain. Another custom domain with the same host name already exists.",
      ]);
    }
    // Deeper subdomains and other hosts are not held.
    await createDomain('deep', 'a.b.apps.fabrikam.example', 'fd2');
    await createDomain('other', 'other.fabrikam.example', 'fd2');

    await bed.cdn.afdCustomDomains.beginDelete(RG, 'fd', 'held').then((p) => (bed.emulator.admin.finishOperations(), p.pollUntilDone()));
    await createDomain('held', 'held.fabrikam.example', 'fd2');
    expect((await bed.cdn.afdCustomDomains.get(RG, 'fd2', 'held')).domainValidationState).toBe('Pending');
  });

  it('takes a fully qualified host name of at least two labels of at most 63 characters, a wildcard first label allowed', async () => {
    for (const hostName of [
      'localhost',
      'a..contoso.example',
      '-a.contoso.example',
      `${'l'.repeat(64)}.example`,
      'a_b.contoso.example',
      'a.*.contoso.example',
    ]) {
      const error = await restErrorOf(
        bed.cdn.afdCustomDomains.beginCreate(RG, 'fd', 'bad', { hostName, tlsSettings: { certificateType: 'CustomerCertificate' } }, FAST_POLLING),
      );
      expect([error.statusCode, error.code, error.message], hostName).toEqual([
        400,
        'BadRequest',
        `'properties.hostName' '${hostName.toLowerCase()}' is not a valid domain name: expected a fully qualified domain name of at least two labels (the first may be '*'), each of letters, digits and inner hyphens and at most 63 characters, 253 in all.`,
      ]);
    }
    await createDomain('apex', 'contoso.example');
    await createDomain('label-63', `${'l'.repeat(63)}.ex`, 'fd', { certificateType: 'CustomerCertificate' });
    expect((await bed.cdn.afdCustomDomains.get(RG, 'fd', 'label-63')).hostName).toBe(`${'l'.repeat(63)}.ex`);
  });
});
