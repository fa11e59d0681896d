import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile, createRoute } from '../testing/afd-fixtures.js';
import { edgeRequest, edgeTlsRequest, startBackend, type Backend } from '../testing/backends.js';
import { FAST_POLLING, RESOURCE_GROUP, cdnId, startTestBed, type TestBed } from '../testing/sdk.js';

const RG = RESOURCE_GROUP;
let bed: TestBed;
let backend: Backend;
let endpointHost: string;
const domainId = (name: string) => cdnId('profiles', 'fd', 'customDomains', name);

beforeAll(async () => {
  bed = await startTestBed({ edge: { propagationDelaysMs: [0], probeIntervalScale: 0.01 } });
  backend = await startBackend('a');
  await createProfile(bed, 'fd');
  endpointHost = await createEndpoint(bed, 'fd', 'web');
  await createOriginGroup(bed, 'fd', 'og');
  await createOrigin(bed, 'fd', 'og', { name: 'o', hostName: '127.0.0.1', httpPort: backend.port });
  for (const [name, hostName] of [
    ['www', 'www.contoso.example'],
    ['apps', '*.apps.contoso.example'],
  ] as const) {
    await bed.cdn.afdCustomDomains.beginCreateAndWait(
      RG,
      'fd',
      name,
      { hostName, tlsSettings: { certificateType: 'ManagedCertificate', minimumTlsVersion: 'TLS12' } },
      FAST_POLLING,
    );
  }
  // HTTP -> HTTPS as the provider writes a RequestRedirect with scheme https: a rule-set UrlRedirect (301), not httpsRedirect.
  await bed.cdn.ruleSets.create(RG, 'fd', 'redirects');
  await bed.cdn.rules.beginCreateAndWait(
    RG,
    'fd',
    'redirects',
    'tohttps',
    {
      order: 1,
      conditions: [
        {
          name: 'RequestScheme',
          parameters: { typeName: 'DeliveryRuleRequestSchemeConditionParameters', operator: 'Equal', negateCondition: false, matchValues: ['HTTP'] },
        },
      ],
      actions: [
        { name: 'UrlRedirect', parameters: { typeName: 'DeliveryRuleUrlRedirectActionParameters', redirectType: 'Moved', destinationProtocol: 'Https' } },
      ],
      matchProcessingBehavior: 'Stop',
    },
    FAST_POLLING,
  );
  await createRoute(bed, 'fd', 'web', 'r', 'og', {
    customDomains: [{ id: domainId('www') }, { id: domainId('apps') }],
    linkToDefaultDomain: 'Enabled',
    supportedProtocols: ['Http', 'Https'],
    ruleSets: [{ id: cdnId('profiles', 'fd', 'ruleSets', 'redirects') }],
  });
  await bed.emulator.admin.whenPropagated();
});
afterAll(async () => {
  await bed.emulator.stop();
  await backend.close();
});

describe('edge over HTTPS', () => {
  it('serves the endpoint host name with a certificate from the emulator CA that the client verifies', async () => {
    const response = await edgeTlsRequest(bed.emulator.edgeTlsUrl, endpointHost, '/x', bed.emulator.caCertificate);
    expect([response.status, response.certificateSubject, response.headers['x-emulator-origin']]).toEqual([200, endpointHost, 'o']);
  });

  it('a custom domain gets no certificate until it is validated, then one for its name (SNI and Host)', async () => {
    await expect(edgeTlsRequest(bed.emulator.edgeTlsUrl, 'www.contoso.example', '/', bed.emulator.caCertificate)).rejects.toThrow();
    bed.emulator.admin.validateCustomDomain(domainId('www'));
    await bed.emulator.admin.whenPropagated();
    const response = await edgeTlsRequest(bed.emulator.edgeTlsUrl, 'www.contoso.example', '/cart?id=1', bed.emulator.caCertificate);
    expect([response.status, response.certificateSubject]).toEqual([200, 'www.contoso.example']);
    expect(response.headers['x-emulator-origin']).toBe('o');
  });

  it('a validated wildcard domain serves any host under it with the wildcard certificate', async () => {
    bed.emulator.admin.validateCustomDomain(domainId('apps'));
    await bed.emulator.admin.whenPropagated();
    const response = await edgeTlsRequest(bed.emulator.edgeTlsUrl, 'one.apps.contoso.example', '/', bed.emulator.caCertificate);
    expect([response.status, response.certificateSubject]).toEqual([200, '*.apps.contoso.example']);
    await expect(edgeTlsRequest(bed.emulator.edgeTlsUrl, 'a.b.apps.contoso.example', '/', bed.emulator.caCertificate)).rejects.toThrow();
  });

  it('refuses TLS 1.1 clients (minimum TLS 1.2)', async () => {
    await expect(
      edgeTlsRequest(bed.emulator.edgeTlsUrl, endpointHost, '/', bed.emulator.caCertificate, { minVersion: 'TLSv1.1', maxVersion: 'TLSv1.1' }),
    ).rejects.toThrow();
  });

  it('HTTP is redirected to HTTPS by the rule set (301), keeping host, path and query; HTTPS is served', async () => {
    const redirect = await edgeRequest(bed.emulator.edgeUrl, 'www.contoso.example', '/cart?id=1');
    expect([redirect.status, redirect.headers.location]).toEqual([301, 'https://www.contoso.example/cart?id=1']);
    const followed = await edgeTlsRequest(bed.emulator.edgeTlsUrl, 'www.contoso.example', '/cart?id=1', bed.emulator.caCertificate);
    expect(followed.status).toBe(200);
  });
});
