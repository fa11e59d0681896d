import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile, createRoute } from '../testing/afd-fixtures.js';
import { backendCertificate, edgeRequest, startBackend, type Backend } from '../testing/backends.js';
import { FAST_POLLING, RESOURCE_GROUP, startTestBed, type TestBed } from '../testing/sdk.js';

// Traffic forwarded over HTTPS, programmed through the unmodified SDK: the origin's TLS settings reach the edge.
let bed: TestBed;
let secure: Backend;

beforeAll(async () => {
  bed = await startTestBed({ edge: { propagationDelaysMs: [0] } });
  secure = await startBackend('secure', await backendCertificate(['secure.internal']));
  await createProfile(bed, 'fd');
});
afterAll(async () => {
  await bed.emulator.stop();
  await secure.close();
});

async function httpsOnlyEndpoint(endpoint: string, originHostHeader: string): Promise<string> {
  const host = await createEndpoint(bed, 'fd', endpoint);
  await createOriginGroup(bed, 'fd', `og-${endpoint}`);
  await createOrigin(bed, 'fd', `og-${endpoint}`, { name: 'o', hostName: '127.0.0.1', extra: { httpsPort: secure.port, originHostHeader } });
  await createRoute(bed, 'fd', endpoint, 'r', `og-${endpoint}`, { forwardingProtocol: 'HttpsOnly' });
  await bed.emulator.admin.whenPropagated();
  return host;
}

describe('forwarding to an HTTPS origin', () => {
  it('connects to the httpsPort with the origin host header as Host and SNI when the certificate names it', async () => {
    const host = await httpsOnlyEndpoint('named', 'secure.internal');
    const response = await edgeRequest(bed.emulator.edgeUrl, host, '/page');
    expect(response.status).toBe(200);
    expect(response.headers['x-emulator-origin']).toBe('o');
    expect(secure.requests.at(-1)).toMatchObject({ path: '/page', servername: 'secure.internal', headers: { host: 'secure.internal' } });
  });

  it('answers 503 when the certificate does not name the origin host header (enforceCertificateNameCheck defaults to true), and serves once the check is off', async () => {
    const host = await httpsOnlyEndpoint('mismatch', 'other.internal');
    const origin = await bed.cdn.afdOrigins.get(RESOURCE_GROUP, 'fd', 'og-mismatch', 'o');
    expect(origin.enforceCertificateNameCheck).toBe(true);
    const refused = await edgeRequest(bed.emulator.edgeUrl, host, '/page');
    expect(refused.status).toBe(503);
    expect(refused.headers['x-emulator-origin']).toBeUndefined();

    await bed.cdn.afdOrigins.beginUpdateAndWait(RESOURCE_GROUP, 'fd', 'og-mismatch', 'o', { enforceCertificateNameCheck: false }, FAST_POLLING);
    await bed.emulator.admin.whenPropagated();
    const served = await edgeRequest(bed.emulator.edgeUrl, host, '/page');
    expect(served.status).toBe(200);
    expect(secure.requests.at(-1)).toMatchObject({ servername: 'other.internal', headers: { host: 'other.internal' } });
  });
});
