import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHubInputs, type HubInputs } from './hub-inputs.js';
import { resolveGateway } from './resolve-gateway.js';
import type { ResolveResult } from './resolve-result.js';
import type { VerdictCondition } from '../verdicts/verdict-types.js';

/** Explicit assertions beside the golden files of issue 11: one object's error stays with that object. */
const testdata = join(import.meta.dirname, '..', '..', 'testdata');
const inputsOf = (name: string): HubInputs => readHubInputs(readFileSync(join(testdata, `${name}.in.yaml`), 'utf8'));

function routeCondition(result: ResolveResult, route: string, type: string): VerdictCondition | undefined {
  return result.verdicts.routes.find((r) => r.name === route)?.parents[0]?.conditions.find((c) => c.type === type);
}

function gatewayAccepted(result: ResolveResult): VerdictCondition | undefined {
  return result.verdicts.gateway?.conditions.find((c) => c.type === 'Accepted');
}

const pathKeys = (result: ResolveResult) => result.model?.routing.flatMap((h) => h.paths.map((p) => `${p.path.kind} ${p.path.value}`)) ?? [];

describe('paths that differ only in case (case 1)', () => {
  const inputs = inputsOf('route-invalid-case-collision');

  it('the older route keeps its path, the newer match is left out and says who won and where its requests go', () => {
    const result = resolveGateway(inputs);
    expect(gatewayAccepted(result)?.status).toBe('True');
    expect(pathKeys(result)).toContain('Exact /shop');
    expect(pathKeys(result)).not.toContain('Exact /Shop');
    // b's other rule is untouched.
    expect(pathKeys(result)).toContain('Subtree /b');
    const dropped = routeCondition(result, 'b', 'PartiallyInvalid');
    expect(dropped).toMatchObject({ status: 'True', reason: 'UnsupportedValue' });
    expect(dropped?.message).toMatch(/^Dropped Rule\(s\): rule 0 match 0 \(Exact \/Shop\) is not programmed/);
    expect(dropped?.message).toContain('HTTPRoute store/a rule 0, which is older and wins');
    expect(dropped?.message).toContain('go to HTTPRoute store/c rule 0 if AFD matches paths case-sensitively');
    expect(dropped?.message).toContain('to HTTPRoute store/a rule 0 and its backends if it matches them case-insensitively');
    expect(routeCondition(result, 'a', 'PartiallyInvalid')).toBeUndefined();
    expect(routeCondition(result, 'c', 'PartiallyInvalid')).toBeUndefined();
  });

  it('age decides, not the order of the objects: made older, b wins and a is left out', () => {
    const routes = (inputs.httpRoutes ?? []).map((r) =>
      r.metadata.name === 'b' ? { ...r, metadata: { ...r.metadata, creationTimestamp: '2025-12-31T00:00:00Z' } } : r,
    );
    const result = resolveGateway({ ...inputs, httpRoutes: routes });
    expect(pathKeys(result)).toContain('Exact /Shop');
    expect(pathKeys(result)).not.toContain('Exact /shop');
    expect(routeCondition(result, 'a', 'PartiallyInvalid')?.message).toContain('HTTPRoute store/b rule 0, which is older and wins');
    expect(routeCondition(result, 'b', 'PartiallyInvalid')).toBeUndefined();
  });
});

describe('"*" in a path value (case 2)', () => {
  it('is dropped as UnsupportedValue, never planned as a wildcard', () => {
    const result = resolveGateway(inputsOf('route-invalid-path-wildcard'));
    expect(pathKeys(result).filter((k) => k.includes('*'))).toEqual([]);
    expect(pathKeys(result)).toEqual(['Exact /ok', 'Subtree /ok']);
    const dropped = routeCondition(result, 'web', 'PartiallyInvalid');
    expect(dropped?.message).toContain('rule 0: path PathPrefix /foo* contains "*"');
    expect(dropped?.message).toContain('rule 1: path Exact /a/* contains "*"');
  });
});

describe('duplicate backendRefs (case 3)', () => {
  it('merged weights past the CRD maximum are scaled together; the Gateway keeps its model', () => {
    const result = resolveGateway(inputsOf('backend-duplicate-refs-weights'));
    expect(gatewayAccepted(result)).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(result.model?.routes[0]?.rules[0]?.backends).toEqual([
      { backend: 'store/cart:8080', weight: 250000 },
      { backend: 'store/web:8080', weight: 1000000 },
    ]);
    expect(result.model?.splits.map((s) => s.key)).toEqual(['store/cart:8080=1,store/web:8080=4']);
  });
});

describe("no rule-level problem can invalidate the Gateway's model", () => {
  it('a route the model refuses (a weight the CRD would refuse, from hand-written inputs) is refused alone', () => {
    const inputs = inputsOf('backend-duplicate-refs-weights');
    const [route] = inputs.httpRoutes ?? [];
    if (!route) throw new Error('fixture has a route');
    const odd = {
      ...route,
      metadata: { ...route.metadata, name: 'odd' },
      spec: {
        ...route.spec,
        rules: [
          {
            matches: [{ path: { type: 'PathPrefix' as const, value: '/odd' } }],
            backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'web', port: 8080, weight: -5 }],
          },
        ],
      },
    };
    const result = resolveGateway({ ...inputs, httpRoutes: [route, odd] });
    expect(gatewayAccepted(result)).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(result.model?.routes.map((r) => r.name)).toEqual(['web']);
    expect(pathKeys(result)).not.toContain('Subtree /odd');
    const accepted = routeCondition(result, 'odd', 'Accepted');
    expect(accepted).toMatchObject({ status: 'False', reason: 'UnsupportedValue' });
    expect(accepted?.message).toBe('the route is not programmed: the model refuses it (route store/odd rule 0: route weight -5 is outside 0..1000000)');
    expect(routeCondition(result, 'web', 'Accepted')).toMatchObject({ status: 'True' });
  });
});

describe('listener isolation (case 5)', () => {
  it('a route whose hostname a more specific listener takes still attaches, and says it serves nothing there', () => {
    const result = resolveGateway(inputsOf('route-listener-isolation'));
    const accepted = routeCondition(result, 'web', 'Accepted');
    expect(accepted).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(accepted?.message).toContain(
      "listener wild serves none of the route's hostnames: listener isolation gives each to the most specific listener (foo.example.com by listener foo)",
    );
    expect(result.verdicts.gateway?.listeners.find((l) => l.name === 'wild')?.attachedRoutes).toBe(1);
  });
});

describe('an invalid backend share (case 6)', () => {
  it("ResolvedRefs says the missing backend's share went to the valid ones, and why", () => {
    const result = resolveGateway(inputsOf('backend-missing-share-redistributed'));
    const refs = routeCondition(result, 'web', 'ResolvedRefs');
    expect(refs).toMatchObject({ status: 'False', reason: 'BackendNotFound' });
    expect(refs?.message).toContain('the share of ServiceImport store/ghost (weight 1 of 2) goes to the valid backends store/web:8080');
    expect(refs?.message).toContain('health probes take an origin that never answers out of rotation');
    expect(result.model?.routes[0]?.rules[0]).toMatchObject({ backends: [{ backend: 'store/web:8080', weight: 1 }], split: 'store/web:8080=1' });
  });
});

describe('configuration errors keep what was last programmed', () => {
  it("a ServiceImport's invalid annotations hold its rules (no withdrawal), naming key, value and the last programmed configuration", () => {
    const result = resolveGateway(inputsOf('backend-invalid-annotations'));
    const rule = result.model?.routes[0]?.rules[0];
    expect(rule?.withdrawn).toBeUndefined();
    expect(rule?.split).toBeUndefined();
    expect(rule?.held).toContain('"networking.fleet.azure.com/afd-health-probe-path" has unsupported value "healthz"');
    const refs = routeCondition(result, 'web', 'ResolvedRefs');
    expect(refs).toMatchObject({ status: 'False', reason: 'InvalidBackendAnnotations' });
    expect(refs?.message).toContain('keeps serving the last programmed configuration');
    expect(refs?.message).toContain('"networking.fleet.azure.com/afd-sku" with value "Premium_AzureFrontDoor" is not supported on a ServiceImport');
  });

  it('a backendRef that is not found is still withdrawn (Gateway API semantics), not held', () => {
    const inputs = inputsOf('backend-missing-share-redistributed');
    const only = (inputs.httpRoutes ?? []).map((r) => ({
      ...r,
      spec: { ...r.spec, rules: [{ backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'ghost', port: 8080 }] }] },
    }));
    const rule = resolveGateway({ ...inputs, httpRoutes: only }).model?.routes[0]?.rules[0];
    expect(rule).toMatchObject({ withdrawn: 'NoValidBackends' });
    expect(rule?.held).toBeUndefined();
  });
});

describe('a revoked ReferenceGrant cuts access (Gateway API semantics, not held)', () => {
  it('without the grant, the cross-namespace backend is RefNotPermitted and its rule withdrawn', () => {
    const inputs = inputsOf('backend-cross-namespace-grant');
    expect(resolveGateway(inputs).model?.routes[0]?.rules[0]?.withdrawn).toBeUndefined();
    const result = resolveGateway({ ...inputs, referenceGrants: [] });
    expect(result.model?.routes[0]?.rules[0]).toMatchObject({ withdrawn: 'NoValidBackends', backends: [] });
    expect(result.model?.routes[0]?.rules[0]?.held).toBeUndefined();
    expect(result.verdicts.routes[0]?.parents[0]?.conditions.find((c) => c.type === 'ResolvedRefs')).toMatchObject({
      status: 'False',
      reason: 'RefNotPermitted',
    });
  });
});

describe('no knock-on errors', () => {
  it('a misspelled SKU key does not fall back to Standard and report PrivateLinkRequiresPremium on the routes', () => {
    const result = resolveGateway(inputsOf('gateway-invalid-misspelled-sku-no-knock-on'));
    expect(gatewayAccepted(result)).toMatchObject({ status: 'False', reason: 'Invalid' });
    expect(gatewayAccepted(result)?.message).toContain('did you mean "networking.fleet.azure.com/afd-sku"?');
    const reasons = result.verdicts.routes.flatMap((r) => r.parents.flatMap((p) => p.conditions.map((c) => c.reason)));
    expect(reasons).not.toContain('PrivateLinkRequiresPremium');
  });

  it('a route refused by a listener that takes no HTTPRoutes is told the listener is invalid, not that its namespace is refused', () => {
    const accepted = routeCondition(resolveGateway(inputsOf('listener-invalid-route-kinds')), 'web', 'Accepted');
    expect(accepted?.reason).toBe('NotAllowedByListeners');
    expect(accepted?.message).toContain('listener grpc takes no HTTPRoutes: it is not valid');
    expect(accepted?.message).not.toContain('namespace');
  });

  it('a route attached to an invalid listener is told nothing is served through it, and why', () => {
    const result = resolveGateway(inputsOf('listener-invalid-port'));
    const accepted = result.verdicts.routes[0]?.parents[0]?.conditions.find((c) => c.type === 'Accepted');
    expect(accepted?.message).toContain('listener http is not valid, so nothing is served through it (HTTP is served on port 80 only, not 8080)');
  });
});

describe('URL rewrite (case 4)', () => {
  it('ReplacePrefixMatch "/" of a non-root prefix is kept beside another prefix rewrite, and the route is fully accepted', () => {
    const result = resolveGateway(inputsOf('route-rewrite-to-root'));
    const rules = result.model?.routes[0]?.rules ?? [];
    expect(rules.map((r) => r.index)).toEqual([0, 1]);
    expect(rules[0]?.filters).toEqual([{ type: 'URLRewrite', path: { type: 'ReplacePrefixMatch', value: '/' } }]);
    expect(routeCondition(result, 'web', 'PartiallyInvalid')).toBeUndefined();
  });
});

describe("a backend port's appProtocol", () => {
  const result = resolveGateway(inputsOf('backend-app-protocol'));

  it('one AFD cannot forward with is UnsupportedProtocol naming the field, value and what is expected, and withdraws only its rule', () => {
    const refs = routeCondition(result, 'web', 'ResolvedRefs');
    expect(refs).toMatchObject({ status: 'False', reason: 'UnsupportedProtocol' });
    expect(refs?.message).toContain(
      'ServiceImport store/grpc port 8080: appProtocol "kubernetes.io/h2c" (status.ports[].appProtocol) is not supported; expected "http" or "https"',
    );
    expect(gatewayAccepted(result)?.status).toBe('True');
    const rules = result.model?.routes[0]?.rules ?? [];
    expect(rules.map((r) => r.withdrawn)).toEqual([undefined, 'NoValidBackends', undefined]);
  });

  it('http or https reaches the model backend; none leaves it unset', () => {
    const appProtocols = Object.fromEntries((result.model?.backends ?? []).map((b) => [b.name, b.appProtocol]));
    expect(appProtocols).toEqual({ secure: 'https', web: undefined });
  });
});

describe("a listener's attachedRoutes", () => {
  it('counts a route the listener admits only while the route is Accepted on it (Gateway API v1.5)', () => {
    const inputs = inputsOf('route-invalid-hostname-mismatch');
    const refused = resolveGateway(inputs);
    expect(routeCondition(refused, 'web', 'Accepted')).toMatchObject({ status: 'False', reason: 'NoMatchingListenerHostname' });
    expect(refused.verdicts.gateway?.listeners.find((l) => l.name === 'http')?.attachedRoutes).toBe(0);
    // The same route with a hostname the listener takes is accepted, and counted.
    const route = inputs.httpRoutes![0]!;
    const matching = resolveGateway({ ...inputs, httpRoutes: [{ ...route, spec: { ...route.spec, hostnames: ['store.example.com'] } }] });
    expect(routeCondition(matching, 'web', 'Accepted')).toMatchObject({ status: 'True' });
    expect(matching.verdicts.gateway?.listeners.find((l) => l.name === 'http')?.attachedRoutes).toBe(1);
  });
});
