import { backendCertificate, edgeRequest, startBackend, type Backend } from '@fleet-gateway/azure-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { reconcile, useHarness } from '../testing/emulator-harness.js';
import { buildGateway } from '../testing/gateway-builder.js';

const backends: Backend[] = [];
afterEach(async () => {
  await Promise.all(backends.splice(0).map((b) => b.close()));
});

const h = useHarness();

describe("the backend's appProtocol at the edge (emulator data plane)", () => {
  it('https: the edge connects to the origin over TLS, on the backend port, with the origin host header as SNI; http: in clear', async () => {
    const { emulator } = h();
    const secure = await startBackend('secure', await backendCertificate(['secure.internal']));
    const plain = await startBackend('plain');
    backends.push(secure, plain);
    emulator.admin.mapAddress('10.1.0.30', 8080, { host: '127.0.0.1', port: secure.port });
    emulator.admin.mapAddress('10.1.0.40', 8080, { host: '127.0.0.1', port: plain.port });
    const model = buildGateway({
      backends: [
        // The probe says Http: appProtocol decides the forwarding protocol, not the probe.
        { name: 'secure', appProtocol: 'https', hostHeader: 'secure.internal', clusters: [{ name: 'member-1', address: '10.1.0.30' }] },
        { name: 'plain', appProtocol: 'http', clusters: [{ name: 'member-1', address: '10.1.0.40' }] },
      ],
      routes: [
        { name: 'secure', rules: [{ paths: ['/secure'], backends: [{ name: 'secure' }] }] },
        { name: 'plain', rules: [{ paths: ['/'], backends: [{ name: 'plain' }] }] },
      ],
    });
    const programmed = await reconcile(h(), model);
    expect(programmed.failures).toEqual([]);
    await emulator.admin.whenPropagated();
    const host = programmed.endpointHostName as string;

    const viaTls = await edgeRequest(emulator.edgeUrl, host, '/secure/page');
    expect(viaTls).toMatchObject({ status: 200, headers: { 'x-backend': 'secure' } });
    expect(secure.requests.at(-1)).toMatchObject({ path: '/secure/page', servername: 'secure.internal' });
    const inClear = await edgeRequest(emulator.edgeUrl, host, '/home');
    expect(inClear).toMatchObject({ status: 200, headers: { 'x-backend': 'plain' } });
    expect(plain.requests.at(-1)?.path).toBe('/home');
    expect(plain.requests.at(-1)?.servername).toBeUndefined();
  });
});
