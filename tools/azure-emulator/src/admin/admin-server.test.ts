import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { start, type RunningEmulator } from '../emulator.js';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await start({ lroDelayMs: 0, throttling: false });
});
afterAll(() => emulator.stop());

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${emulator.admin.url}${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: response.status, body: await response.json() };
}

describe('admin API over HTTP', () => {
  it('lists its operations', async () => {
    const index = await call('GET', '/');
    expect((index.body as { routes: string[] }).routes).toEqual(expect.arrayContaining(['POST /faults', 'GET /state', 'POST /waf-policies']));
  });

  it('creates WAF policies and shows them in the state dump', async () => {
    const created = await call('POST', '/waf-policies', { subscriptionId: 'sub', resourceGroup: 'rg', name: 'waf1', sku: 'Premium_AzureFrontDoor' });
    expect(created).toEqual({
      status: 201,
      body: { id: '/subscriptions/sub/resourceGroups/rg/providers/Microsoft.Network/frontDoorWebApplicationFirewallPolicies/waf1' },
    });
    const state = (await call('GET', '/state')).body as { resources: Array<{ id: string }>; edges: { edges: unknown[] } };
    expect(state.resources.map((resource) => resource.id)).toContain((created.body as { id: string }).id);
    expect(state.edges.edges).toHaveLength(3);
  });

  it('manages faults, and rejects bad input naming the field without changing anything', async () => {
    expect((await call('POST', '/faults', { kind: 'status', status: 503, pathPattern: '/profiles' })).status).toBe(201);
    expect((await call('GET', '/faults')).body).toHaveLength(1);
    const bad = await call('POST', '/faults', { kind: 'status', status: 418 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain("'status' must be one of 400, 403, 409, 429, 500, 503");
    expect((await call('GET', '/faults')).body).toHaveLength(1);
    await call('DELETE', '/faults');
    expect((await call('GET', '/faults')).body).toEqual([]);
  });

  it('answers 400 or 404 with an error body for bad calls', async () => {
    expect(await call('PUT', '/edge/addresses', { address: '10.0.0.1', port: 80 })).toMatchObject({ status: 400, body: { error: { code: 'BadRequest' } } });
    expect(
      (await call('POST', '/custom-domains/validate', { id: '/subscriptions/x/resourceGroups/y/providers/Microsoft.Cdn/profiles/p/customDomains/d' })).status,
    ).toBe(404);
    expect((await call('POST', '/custom-domains/validate', {})).body).toMatchObject({ error: { message: "'id' must be a non-empty string; got null." } });
    expect((await call('GET', '/nope')).status).toBe(404);
  });

  it('connects a consumer private endpoint to a Private Link Service', async () => {
    const missing = await call('POST', '/private-endpoint-connections', {
      privateLinkServiceId: '/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/privateLinkServices/p',
      privateEndpointId: '/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/privateEndpoints/e',
    });
    expect(missing).toMatchObject({ status: 404, body: { error: { code: 'ResourceNotFound' } } });
    expect((await call('POST', '/private-endpoint-connections', { privateEndpointId: 'x' })).body).toMatchObject({
      error: { message: "'privateLinkServiceId' must be a non-empty string; got null." },
    });
  });

  it('maps addresses, waits for propagation and finishes running operations', async () => {
    expect((await call('PUT', '/edge/addresses', { address: '10.224.0.9', port: 80, target: { host: '127.0.0.1', port: 8080 } })).status).toBe(200);
    expect(((await call('GET', '/state')).body as { edges: { addresses: unknown[] } }).edges.addresses).toEqual([
      { address: '10.224.0.9:80', target: { host: '127.0.0.1', port: 8080 } },
    ]);
    expect((await call('POST', '/edge/propagated')).status).toBe(200);
    expect(await call('POST', '/operations/finish')).toEqual({ status: 200, body: { finished: 0 } });
  });
});
