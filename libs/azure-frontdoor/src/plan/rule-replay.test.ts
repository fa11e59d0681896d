import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  corsHeadersOf,
  edgeRequest,
  preflightFrom,
  startBackend,
  type Backend,
  type EdgeRequestOptions,
  type EdgeResponse,
} from '@fleet-gateway/azure-emulator';
import { readHubInputs, resolveGateway, type GlobalGateway } from '@fleet-gateway/model';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { buildGateway, type GatewayFixture } from '../testing/gateway-builder.js';
import { reconcile, useHarness } from '../testing/emulator-harness.js';

/**
 * The golden cases whose plan holds rule sets, replayed through plan → emulator (reconcile with the unmodified SDK)
 * → edge, with a real HTTP backend behind every origin: the requests each HTTPRoute rule is meant to catch must reach
 * the backend it names, with its filters applied. The model's cases give their listener a hostname, which needs a
 * custom domain (not programmed yet, NeedsCustomDomain): here the listener has none, so the routes serve on the
 * endpoint's own host; nothing else of the case changes.
 */
const h = useHarness({ emulator: { edge: { propagationDelaysMs: [0] } } });
const started: Backend[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((backend) => backend.close()));
});

type HubDocument = { gateway: { spec: { listeners: Array<{ hostname?: string }> } }; [key: string]: unknown };

function modelGolden(name: string, edit: (document: HubDocument) => void = () => undefined): GlobalGateway {
  const document = parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'model', 'testdata', `${name}.in.yaml`), 'utf8')) as HubDocument;
  for (const listener of document.gateway.spec.listeners) delete listener.hostname;
  edit(document);
  const model = resolveGateway(readHubInputs(stringify(document))).model;
  if (model === undefined) throw new Error(`${name} resolves to no model`);
  return model;
}

function planGolden(name: string): GlobalGateway {
  const input = parse(readFileSync(join(import.meta.dirname, '..', '..', 'testdata', `${name}.in.yaml`), 'utf8')) as { fixture: GatewayFixture };
  return buildGateway(input.fixture);
}

/** Programs the model and puts a backend named after its ServiceImport behind every origin address. */
async function program(
  model: GlobalGateway,
): Promise<(path: string, options?: EdgeRequestOptions) => Promise<EdgeResponse & { backend?: string; seen?: Backend['requests'][number] }>> {
  const byAddress = new Map<string, Backend>();
  for (const backend of model.backends) {
    for (const origin of backend.origins) {
      if (origin.address === undefined) continue;
      const server = await startBackend(backend.name);
      started.push(server);
      byAddress.set(`${origin.address}:${backend.port}`, server);
      h().emulator.admin.mapAddress(origin.address, backend.port, { host: '127.0.0.1', port: server.port });
    }
  }
  const report = await reconcile(h(), model);
  expect(report.failures).toEqual([]);
  expect(report.programmed).toBe(true);
  await h().emulator.admin.whenPropagated();
  const host = report.endpointHostName as string;
  return async (path, options) => {
    const counts = new Map([...byAddress.values()].map((server) => [server, server.requests.length]));
    const response = await edgeRequest(h().emulator.edgeUrl, host, path, options);
    const server = [...byAddress.values()].find((candidate) => candidate.requests.length > (counts.get(candidate) ?? 0));
    return { ...response, ...(server ? { backend: server.name, seen: server.requests.at(-1) } : {}) };
  };
}

/** route-precedence with one ServiceImport per HTTPRoute (named after it), so that the winner shows in the backend. */
function ownBackendPerRoute(document: HubDocument): void {
  const routes = document.httpRoutes as Array<{ metadata: { name: string }; spec: { rules: Array<{ backendRefs: Array<{ name: string }> }> } }>;
  const imports = document.serviceImports as Array<{ metadata: { name: string } }>;
  const exports = document.internalServiceExports as Array<{
    metadata: { name: string };
    spec: { serviceReference: Record<string, unknown>; publicAddress: string };
  }>;
  const copies = routes.map((route, i) => {
    for (const rule of route.spec.rules) for (const ref of rule.backendRefs) ref.name = route.metadata.name;
    const clone = <T>(value: T): T => structuredClone(value);
    return {
      serviceImport: { ...clone(imports[0]!), metadata: { ...imports[0]!.metadata, name: route.metadata.name } },
      exports: exports.map((e, j) => {
        const copy = clone(e);
        copy.metadata.name = `store-${route.metadata.name}`;
        Object.assign(copy.spec.serviceReference, {
          name: route.metadata.name,
          namespacedName: `store/${route.metadata.name}`,
          uid: `00000000-0000-4000-8000-0000000001${i}${j}`,
        });
        copy.spec.publicAddress = `20.0.${i + 1}.${j + 1}`;
        return copy;
      }),
    };
  });
  document.serviceImports = copies.map((c) => c.serviceImport);
  document.internalServiceExports = copies.flatMap((c) => c.exports);
}

describe('golden cases with rule sets, replayed at the edge', () => {
  it('route-precedence: Exact beats a header match on the same path; the header match beats the plain prefix below it; the root gets the rest', async () => {
    const send = await program(modelGolden('route-precedence', ownBackendPerRoute));
    const canary = { headers: { 'x-canary': '1' } };
    expect((await send('/a')).backend).toBe('exact');
    expect((await send('/a', canary)).backend).toBe('exact');
    expect((await send('/a/x', canary)).backend).toBe('header');
    expect((await send('/a/x', { headers: { 'x-canary': '2' } })).backend).toBe('prefix');
    expect((await send('/a/x')).backend).toBe('prefix');
    expect((await send('/a/')).backend).toBe('prefix');
    expect((await send('/b')).backend).toBe('root');
    expect((await send('/')).backend).toBe('root');
  });

  it('route-filters-supported: the redirect answers 301 with its Location; full-path and prefix rewrites of the prefix itself reach the origin rewritten', async () => {
    const send = await program(modelGolden('route-filters-supported'));
    const redirect = await send('/old');
    expect([redirect.status, redirect.headers.location, redirect.backend]).toEqual([301, 'https://new.example.com/new', undefined]);
    const health = await send('/health');
    expect([health.backend, health.seen?.path]).toEqual(['web', '/healthz']);
    const prefix = await send('/v1');
    expect([prefix.backend, prefix.seen?.path]).toEqual(['web', '/v2']);
    // rule/0 has conditions and no unconditional fallback for /api/: it is reported, not programmed (AFD has no 404 action).
    expect((await send('/api/x', { method: 'POST', headers: { 'x-version': 'v2' } })).status).toBe(404);
  });

  it('plan-rule-set: the canary header reaches the canary backend; the rest reaches web with the request header edits and the rewrite', async () => {
    const send = await program(planGolden('plan-rule-set'));
    const canary = await send('/app/x', { headers: { 'x-canary': 'true', 'x-debug': 'on' } });
    expect([canary.backend, canary.seen?.path, canary.seen?.headers['x-debug'], canary.seen?.headers['x-env']]).toEqual(['canary', '/app/x', 'on', undefined]);
    const web = await send('/app', { headers: { 'x-debug': 'on', 'x-env': 'dev' } });
    expect([web.backend, web.seen?.path]).toEqual(['web', '/v2']);
    expect([web.seen?.headers['x-env'], web.seen?.headers['x-via'], web.seen?.headers['x-debug']]).toEqual(['prod', 'afd', undefined]);
    expect((await send('/app/x', { headers: { 'x-canary': 'false' } })).backend).toBe('web');
  });

  it('route-rewrite-to-root: /a -> / and /c -> /d/ for the prefix itself, below it and with a query', async () => {
    const send = await program(modelGolden('route-rewrite-to-root'));
    const seen = async (path: string): Promise<[string | undefined, string | undefined]> => {
      const response = await send(path);
      return [response.backend, response.seen?.path];
    };
    expect(await seen('/c?q=1')).toEqual(['web', '/d?q=1']);
    expect(await seen('/c/x')).toEqual(['web', '/d/x']);
    expect(await seen('/c/')).toEqual(['web', '/d/']);
    expect(await seen('/a')).toEqual(['web', '/']);
    expect(await seen('/a/x?q=1')).toEqual(['web', '/x?q=1']);
    expect(await seen('/a/')).toEqual(['web', '/']);
    // `/cx` is not under the PathPrefix /c (whole segments): nothing else serves it.
    expect((await send('/cx')).status).toBe(404);
  });

  describe('route-filters-cors: CORS headers set by rules on the Origin, redirect status codes', () => {
    it('a preflight from a listed origin reaches the backend and comes back with the allow headers and that origin', async () => {
      const send = await program(modelGolden('route-filters-cors'));
      const answer = await send('/api/orders', preflightFrom('https://app.example.com'));
      expect([answer.status, answer.backend, answer.seen?.method]).toEqual([200, 'web', 'OPTIONS']);
      expect(corsHeadersOf(answer)).toEqual({
        'access-control-allow-origin': 'https://app.example.com',
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, PUT',
        'access-control-allow-headers': 'x-token, content-type',
        'access-control-max-age': '600',
        'access-control-expose-headers': 'x-request-id',
      });
      expect(answer.headers.vary).toBe(', Origin');
    });

    it('an actual request from a listed origin gets that origin and the credentials and exposed headers, not the preflight ones', async () => {
      const send = await program(modelGolden('route-filters-cors'));
      expect(corsHeadersOf(await send('/api/orders', { headers: { origin: 'https://admin.example.com' } }))).toEqual({
        'access-control-allow-origin': 'https://admin.example.com',
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': 'x-request-id',
      });
    });

    it('several origins one after the other each get their own origin back: nothing of an earlier answer is served to another origin', async () => {
      const send = await program(modelGolden('route-filters-cors'));
      const origins = ['https://app.example.com', 'http://localhost:8080', 'https://admin.example.com', 'https://app.example.com'];
      const echoed = [];
      for (const origin of origins) echoed.push((await send('/api/orders', { headers: { origin } })).headers['access-control-allow-origin']);
      expect(echoed).toEqual(origins);
    });

    it('a request or preflight from an origin not listed gets no CORS headers, yet still reaches the backend', async () => {
      const send = await program(modelGolden('route-filters-cors'));
      for (const options of [preflightFrom('https://evil.example.com'), { headers: { origin: 'https://app.example.com:8443' } }, {}]) {
        const answer = await send('/api/orders', options);
        expect([answer.backend, corsHeadersOf(answer)]).toEqual(['web', {}]);
      }
    });

    it('a wildcard origin is answered with *, for the subdomains it covers only', async () => {
      const send = await program(modelGolden('route-filters-cors'));
      expect(corsHeadersOf(await send('/public/x', preflightFrom('https://a.b.example.org')))).toEqual({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': '*',
        'access-control-max-age': '5',
      });
      expect(corsHeadersOf(await send('/public/x', { headers: { origin: 'https://example.org' } }))).toEqual({});
      expect(corsHeadersOf(await send('/public/x', { headers: { origin: 'http://a.example.org' } }))).toEqual({});
    });

    it('307 and 308 redirects answer at the edge with their code; the refused 303 and CORS rules are not programmed', async () => {
      const send = await program(modelGolden('route-filters-cors'));
      const temporary = await send('/moved?q=1', { method: 'POST' });
      expect([temporary.status, temporary.headers.location, temporary.backend]).toEqual([307, expect.stringMatching(/^http:\/\/[^/]+\/new\?q=1$/), undefined]);
      const permanent = await send('/gone');
      expect([permanent.status, permanent.headers.location, permanent.backend]).toEqual([308, 'http://new.example.com/gone', undefined]);
      expect((await send('/see-other')).status).toBe(404);
      expect(corsHeadersOf(await send('/star', { headers: { origin: 'https://app.example.com' } }))).toEqual({});
    });
  });

  // AFD's UrlRewrite never sees the route's own prefix (A60), so below a prefix other than `/` the route's originPath
  // takes the prefix's place (A67) and the rules put back what each candidate asks for.
  describe('ReplacePrefixMatch below the prefix itself', () => {
    it('route-filters-supported: /v1/x reaches the origin as /v2/x, with its query; /v1x is not under /v1', async () => {
      const send = await program(modelGolden('route-filters-supported'));
      expect((await send('/v1/x')).seen?.path).toBe('/v2/x');
      expect((await send('/v1/x/y?q=1')).seen?.path).toBe('/v2/x/y?q=1');
      expect((await send('/v1?q=1')).seen?.path).toBe('/v2?q=1');
      expect((await send('/v1/')).seen?.path).toBe('/v2/');
      expect((await send('/v1x')).status).toBe(404);
    });
    it('route-rewrite-to-root: /c/x reaches the origin as /d/x', async () => {
      expect((await (await program(modelGolden('route-rewrite-to-root')))('/c/x')).seen?.path).toBe('/d/x');
    });
    it('plan-rule-set: /app/x reaches the origin as /v2/x', async () => {
      expect((await (await program(planGolden('plan-rule-set')))('/app/x')).seen?.path).toBe('/v2/x');
    });
    it('plan-rule-set, candidates that disagree on one AFD route: the canary keeps /app, the rest gets /v2, each with its query', async () => {
      const send = await program(planGolden('plan-rule-set'));
      const canary = { headers: { 'x-canary': 'true' } };
      const seen = async (path: string, options?: EdgeRequestOptions): Promise<[string | undefined, string | undefined]> => {
        const response = await send(path, options);
        return [response.backend, response.seen?.path];
      };
      expect(await seen('/app/x/y?q=1', canary)).toEqual(['canary', '/app/x/y?q=1']);
      expect(await seen('/app/', canary)).toEqual(['canary', '/app/']);
      expect(await seen('/app', canary)).toEqual(['canary', '/app']);
      expect(await seen('/app/x/y?q=1')).toEqual(['web', '/v2/x/y?q=1']);
      expect(await seen('/app/')).toEqual(['web', '/v2/']);
      expect(await seen('/app?q=1')).toEqual(['web', '/v2?q=1']);
    });
  });
});
