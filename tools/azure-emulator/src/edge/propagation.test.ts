import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile, createRoute } from '../testing/afd-fixtures.js';
import { edgeRequest, startBackend, type Backend } from '../testing/backends.js';
import { FAST_POLLING, RESOURCE_GROUP, startTestBed, type TestBed } from '../testing/sdk.js';

// The slowest edge waits long enough that a request sent right after an operation ends still finds it on the old
// configuration, however loaded the machine is; the fastest applies at once.
const DELAYS = [0, 200, 1500];
let bed: TestBed;
let backend: Backend;
let host: string;

beforeAll(async () => {
  bed = await startTestBed({ edge: { propagationDelaysMs: DELAYS } });
  backend = await startBackend('a');
  await createProfile(bed, 'fd');
  host = await createEndpoint(bed, 'fd', 'prop');
  await createOriginGroup(bed, 'fd', 'og');
  await createOrigin(bed, 'fd', 'og', { name: 'a', hostName: '127.0.0.1', httpPort: backend.port });
});
afterAll(async () => {
  await bed.emulator.stop();
  await backend.close();
});

async function statusesAtEachEdge(): Promise<number[]> {
  return Promise.all(DELAYS.map((_, edge) => edgeRequest(bed.emulator.edgeUrl, host, '/', { edge }).then((r) => r.status)));
}

describe('propagation across simulated edges', () => {
  it('a new route is visible at the fastest edge before the slowest', async () => {
    expect(await statusesAtEachEdge()).toEqual([404, 404, 404]);
    await createRoute(bed, 'fd', 'prop', 'r', 'og');
    // The operation has ended and the change is published: edge 0 (no delay) serves it, edge 2 not yet.
    const first = await statusesAtEachEdge();
    expect([first[0], first[2]]).toEqual([200, 404]);
    await bed.emulator.admin.whenPropagated();
    expect(await statusesAtEachEdge()).toEqual([200, 200, 200]);
  });

  it('withdrawing a route reaches every edge only after the longest delay', async () => {
    const started = performance.now();
    await bed.cdn.routes.beginDeleteAndWait(RESOURCE_GROUP, 'fd', 'prop', 'r', FAST_POLLING);
    const during = await statusesAtEachEdge();
    expect([during[0], during[2]]).toEqual([404, 200]);
    await bed.emulator.admin.whenPropagated();
    expect(performance.now() - started).toBeGreaterThanOrEqual(Math.max(...DELAYS));
    expect(await statusesAtEachEdge()).toEqual([404, 404, 404]);
    const status = bed.emulator.admin.edgeStatus();
    expect(status.edges.map((edge) => [edge.delayMs, edge.version])).toEqual(DELAYS.map((delay) => [delay, status.latestVersion]));
  });

  it('spreads unpinned requests across the edges', async () => {
    const before = bed.emulator.admin.edgeStatus().requests;
    const seen = new Set<string>();
    for (let i = 0; i < DELAYS.length; i++) seen.add(String((await edgeRequest(bed.emulator.edgeUrl, host, '/')).headers['x-emulator-edge']));
    expect([...seen].sort()).toEqual(['0', '1', '2']);
    const total = (requests: typeof before) => requests.reduce((sum, entry) => sum + entry.count, 0);
    expect(total(bed.emulator.admin.edgeStatus().requests) - total(before)).toBe(DELAYS.length);
  });
});
