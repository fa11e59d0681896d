import { describe, expect, it } from 'vitest';
import { dnsInstructions, domainsNeedingNewToken, isApex, reportCustomDomains, TOKEN_REFRESH_AHEAD_MS, validationRecordName } from './domain-validation.js';
import type { CustomDomainSpec } from '../plan/spec-types.js';

const spec: CustomDomainSpec = {
  ref: { kind: 'customDomain', profile: 'p', customDomain: 'cd-www' },
  hostName: 'www.contoso.com',
  minimumTlsVersion: 'TLS12',
  provenance: [{ kind: 'Gateway', namespace: 'store', name: 'edge', section: 'https' }],
};
const ENDPOINT = 'fgw-edge-abc.z01.azurefd.net';
const report = (state: string | undefined) =>
  reportCustomDomains(
    [spec],
    () =>
      state === undefined
        ? undefined
        : { domainValidationState: state, validationProperties: { validationToken: 'tok123', expirationDate: '2026-12-08T00:00:00Z' } },
    ENDPOINT,
  )[0]!;

describe('custom domain validation (pure)', () => {
  it('every domainValidationState of the spec has its own message, and only Approved counts as validated', () => {
    const expected: Record<string, string> = {
      Approved: 'custom domain cd-www (www.contoso.com) is validated; AFD serves it with a managed certificate',
      Submitting: 'is being submitted to AFD; its validation token is not issued yet',
      Pending: `is pending validation: create DNS TXT record _dnsauth.www.contoso.com with value "tok123" (token expires 2026-12-08T00:00:00Z; the hub asks AFD for a new one a day before) and a CNAME record www.contoso.com -> ${ENDPOINT}`,
      PendingRevalidation: 'must be revalidated (managed certificate renewal): keep or recreate the records: create DNS TXT record _dnsauth.www.contoso.com',
      RefreshingValidationToken: 'AFD is issuing a new validation token; the TXT record _dnsauth.www.contoso.com must then get the new value',
      TimedOut: 'validation timed out (no matching TXT record before the token expired); the hub asks AFD for a new token',
      Rejected: 'the certificate authority rejected the domain (check CAA records',
      InternalError: 'AFD reports an internal error validating the domain',
      Unknown: 'AFD reports validation state Unknown',
    };
    for (const [state, text] of Object.entries(expected)) {
      const r = report(state);
      expect(r.message, state).toContain(text);
      expect([r.validationState, r.validated], state).toEqual([state, state === 'Approved']);
      expect(r.listeners).toEqual(['https']);
    }
    expect(report(undefined)).toMatchObject({ validationState: 'NotCreated', validated: false });
    expect(new Set(Object.keys(expected).map((s) => report(s).message)).size).toBe(Object.keys(expected).length);
  });

  it('apex, subdomain and wildcard records', () => {
    expect([isApex('contoso.com'), isApex('www.contoso.com'), isApex('*.contoso.com')]).toEqual([true, false, false]);
    // Under a multi-label public suffix the apex has three labels, and four is a subdomain.
    expect([isApex('contoso.co.uk'), isApex('www.contoso.co.uk'), isApex('shop.contoso.com.au'), isApex('Contoso.CO.UK')]).toEqual([true, false, false, true]);
    expect(validationRecordName('*.apps.contoso.com')).toBe('_dnsauth.apps.contoso.com');
    expect(dnsInstructions('contoso.com', 't', undefined, ENDPOINT)).toBe(
      `create DNS TXT record _dnsauth.contoso.com with value "t" and an alias record (Azure DNS) or a flattened CNAME for the apex contoso.com to ${ENDPOINT} (an apex cannot take a CNAME)`,
    );
  });

  it('asks for a new token when it expires within a day or has timed out, never for a validated domain', () => {
    const now = Date.parse('2026-12-01T00:00:00Z');
    const at = (ms: number) => new Date(now + ms).toISOString();
    const domain = (name: string, state: string, expires: string) => ({
      name,
      arm: { domainValidationState: state, validationProperties: { validationToken: 'x', expirationDate: expires } },
    });
    expect(
      domainsNeedingNewToken(
        [
          domain('due', 'Pending', at(TOKEN_REFRESH_AHEAD_MS - 1)),
          domain('fresh', 'Pending', at(TOKEN_REFRESH_AHEAD_MS + 60_000)),
          domain('late', 'TimedOut', at(-1)),
          domain('renewal', 'PendingRevalidation', at(3600_000)),
          domain('done', 'Approved', at(-1)),
          domain('submitting', 'Submitting', ''),
        ],
        now,
      ),
    ).toEqual(['due', 'late', 'renewal']);
  });
});
