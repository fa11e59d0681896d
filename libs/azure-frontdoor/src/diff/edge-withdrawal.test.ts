import { createServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildGateway, type GatewayFixture } from '../testing/gateway-builder.js';
import { reconcile, useHarness } from '../testing/emulator-harness.js';

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

type Answer = { status: number; body: string };

/** Requests to one path, round-robin over the simulated edges, until `stop` resolves; every answer is kept. */
async function sustained(path: string, host: string, stop: Promise<unknown>): Promise<Answer[]> {
  let done = false;
  void stop.then(() => (done = true));
  const answers: Answer[] = [];
  for (let i = 0; !done; i += 1) answers.push(await edgeGet(path, host, i % 3));
  return answers;
}

const window = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const summary = (answers: readonly Answer[]) => [...new Set(answers.map((a) => `${a.status} ${a.status === 200 ? a.body : ''}`.trim()))].sort();

describe('withdrawal at the edge (emulator data plane)', () => {
  it("a rule that loses every origin answers 503 for every request of a sustained window, never its backend nor the less specific route's", async () => {
    const { emulator } = h();
    emulator.admin.mapAddress('10.1.0.10', 8080, { host: '127.0.0.1', port: await backend('web') });
    emulator.admin.mapAddress('10.1.0.20', 8080, { host: '127.0.0.1', port: await backend('other') });

    const programmed = await reconcile(h(), buildGateway(fixture(1)));
    const host = programmed.endpointHostName as string;
    await emulator.admin.whenPropagated();
    expect(await edgeGet('/shop/cart', host, 0)).toEqual({ status: 200, body: 'web' });
    expect(await edgeGet('/home', host, 0)).toEqual({ status: 200, body: 'other' });

    // While the withdrawal is written and propagates edge by edge, /shop is served by web or refused, never by other.
    const withdrawal = reconcile(h(), buildGateway(fixture(0))).then(async (report) => {
      await emulator.admin.whenPropagated();
      return report;
    });
    const transition = await sustained('/shop/cart', host, withdrawal);
    expect((await withdrawal).failures).toEqual([]);
    expect(summary(transition).every((s) => s === '200 web' || s === '503')).toBe(true);

    // Withdrawn and propagated: a sustained window of requests on every edge, all answered by AFD's error.
    const withdrawn = await sustained('/shop/cart', host, window(750));
    const exact = await sustained('/shop', host, window(250));
    expect(withdrawn.length).toBeGreaterThan(30);
    expect(summary([...withdrawn, ...exact])).toEqual(['503']);
    expect(withdrawn.every((a) => a.body.includes("Our services aren't available right now"))).toBe(true);
    expect(await edgeGet('/home', host, 1)).toEqual({ status: 200, body: 'other' });

    // The rule gets its origin back: web again, and never other on the way.
    const restore = reconcile(h(), buildGateway(fixture(1))).then(() => emulator.admin.whenPropagated());
    const returning = await sustained('/shop/cart', host, restore);
    expect(summary(returning).every((s) => s === '200 web' || s === '503')).toBe(true);
    expect(summary(await sustained('/shop/cart', host, window(250)))).toEqual(['200 web']);
  }, 15_000);
});
