import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildGateway, type GatewayFixture } from './testing/gateway-builder.js';
import { reconcile, useHarness } from './testing/emulator-harness.js';

/** Local backends that answer with their own name, standing in for the members' Services. */
const servers: Server[] = [];
async function backend(name: string): Promise<number> {
  const server = createServer((_req, res) => res.end(name));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

const fixture = (shopWeight: number): GatewayFixture => ({
  backends: [
    { name: 'web', clusters: [{ name: 'member-1', address: '10.1.0.10' }] },
    { name: 'other', clusters: [{ name: 'member-1', address: '10.1.0.20' }] },
  ],
  routes: [
    { name: 'shop', rules: [{ paths: ['/shop'], backends: [{ name: 'web', weight: shopWeight }] }] },
    { name: 'fallback', rules: [{ paths: ['/'], backends: [{ name: 'other' }] }] },
  ],
});

const h = useHarness();

/** fetch() drops a Host header, so the edge is asked with node:http. */
function edgeGet(path: string, host: string, edge: number): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get(`${h().emulator.edgeUrl}${path}`, { headers: { host, 'x-emulator-edge': String(edge) } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('withdrawal at the edge (emulator data plane)', () => {
  it('a rule that loses every origin answers 503 and never reaches the less specific route\'s backend', async () => {
    const { emulator } = h();
    emulator.admin.mapAddress('10.1.0.10', 8080, { host: '127.0.0.1', port: await backend('web') });
    emulator.admin.mapAddress('10.1.0.20', 8080, { host: '127.0.0.1', port: await backend('other') });

    const programmed = await reconcile(h(), buildGateway(fixture(1)));
    const host = programmed.endpointHostName as string;
    await emulator.admin.whenPropagated();
    expect(await edgeGet('/shop/cart', host, 0)).toEqual({ status: 200, body: 'web' });
    expect(await edgeGet('/home', host, 0)).toEqual({ status: 200, body: 'other' });

    await reconcile(h(), buildGateway(fixture(0)));
    await emulator.admin.whenPropagated();
    for (const edge of [0, 1, 2]) {
      for (const path of ['/shop', '/shop/cart']) {
        const answer = await edgeGet(path, host, edge);
        expect(answer.status).toBe(503);
        expect(answer.body).not.toBe('other');
      }
    }
    expect(await edgeGet('/home', host, 1)).toEqual({ status: 200, body: 'other' });
  });
});
