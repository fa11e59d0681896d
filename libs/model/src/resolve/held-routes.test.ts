import type { HTTPRoute, HTTPRouteRule, InternalServiceExport, ParentReference, ReferenceGrant, ServiceImport } from '@fleet-gateway/api-types';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { acceptedSpecKey, acceptedSpecsDue, acceptedSpecValue, readAcceptedSpec } from './accepted-spec.js';
import { modelHash } from '../model/content-hash.js';
import type { HubInputs } from './hub-inputs.js';
import { resolveGateway } from './resolve-gateway.js';
import type { ResolveResult } from './resolve-result.js';
import type { VerdictCondition } from '../verdicts/verdict-types.js';

// Three teams share the Gateway store/edge: team-a serves /a, team-b /b, team-c the catch-all /. Each route's record
// says the Gateway accepted its generation 1.
const GATEWAY = 'store/edge';
const FLEET = 'networking.fleet.azure.com';

function serviceImport(namespace: string, name: string): ServiceImport {
  return {
    apiVersion: `${FLEET}/v1alpha1`,
    kind: 'ServiceImport',
    metadata: { namespace, name },
    status: { type: 'ClusterSetIP', ports: [{ port: 8080, protocol: 'TCP' }], clusters: [{ cluster: 'member-1' }] },
  };
}

function serviceExport(namespace: string, name: string, address: string): InternalServiceExport {
  return {
    apiVersion: `${FLEET}/v1alpha1`,
    kind: 'InternalServiceExport',
    metadata: { namespace: 'fleet-member-member-1', name: `${namespace}-${name}` },
    spec: {
      ports: [{ port: 8080, protocol: 'TCP' }],
      serviceReference: {
        clusterId: 'member-1',
        kind: 'Service',
        namespace,
        name,
        namespacedName: `${namespace}/${name}`,
        resourceVersion: '1',
        generation: 1,
        uid: `uid-${namespace}-${name}`,
      },
      type: 'LoadBalancer',
      weight: 1,
      publicAddress: address,
      azureObservedTime: '2026-01-01T00:00:00Z',
    },
  };
}

const backend = (name: string, extra: Record<string, unknown> = {}) => ({ group: FLEET, kind: 'ServiceImport', name, port: 8080, ...extra });

function route(team: string, path: string, generation = 1): HTTPRoute {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { namespace: team, name: team, uid: `uid-${team}`, generation, creationTimestamp: '2026-01-01T00:00:00Z' },
    spec: {
      parentRefs: [{ name: 'edge', namespace: 'store' }],
      rules: [{ matches: [{ path: { type: 'PathPrefix', value: path } }], backendRefs: [backend('web')] }],
    },
  };
}

/** The route with its current generation recorded as accepted by the Gateway. */
function recorded(r: HTTPRoute): HTTPRoute {
  return { ...r, metadata: { ...r.metadata, annotations: { ...r.metadata.annotations, [acceptedSpecKey(GATEWAY)]: acceptedSpecValue(r, GATEWAY) } } };
}

const TEAMS = { 'team-a': '/a', 'team-b': '/b', 'team-c': '/' } as const;

function baseline(): HubInputs {
  return {
    controller: { defaultSku: 'Standard_AzureFrontDoor' },
    gatewayClass: { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: 'afd' }, spec: { controllerName: `${FLEET}/afd` } },
    gateway: {
      apiVersion: 'gateway.networking.k8s.io/v1',
      kind: 'Gateway',
      metadata: { namespace: 'store', name: 'edge', uid: 'uid-edge', generation: 1 },
      spec: {
        gatewayClassName: 'afd',
        listeners: [{ name: 'http', protocol: 'HTTP', port: 80, hostname: 'store.example.com', allowedRoutes: { namespaces: { from: 'All' } } }],
      },
    },
    httpRoutes: Object.entries(TEAMS).map(([team, path]) => recorded(route(team, path))),
    serviceImports: [...Object.keys(TEAMS).map((team) => serviceImport(team, 'web')), serviceImport('team-x', 'web')],
    internalServiceExports: [...Object.keys(TEAMS).map((team, i) => serviceExport(team, 'web', `20.0.0.${i + 1}`)), serviceExport('team-x', 'web', '20.0.0.9')],
  };
}

/** Team-b's route at generation 2 with `edit` applied to its spec; its record still says generation 1. */
function edited(inputs: HubInputs, team: string, edit: (spec: HTTPRoute['spec']) => HTTPRoute['spec']): HubInputs {
  return {
    ...inputs,
    httpRoutes: (inputs.httpRoutes ?? []).map((r) =>
      r.metadata.name === team ? { ...r, metadata: { ...r.metadata, generation: (r.metadata.generation ?? 0) + 1 }, spec: edit(r.spec) } : r,
    ),
  };
}

const withRule =
  (rule: Partial<HTTPRouteRule>) =>
  (spec: HTTPRoute['spec']): HTTPRoute['spec'] => ({ ...spec, rules: [{ ...spec.rules?.[0], ...rule }] });
const withParent =
  (parent: Partial<ParentReference>) =>
  (spec: HTTPRoute['spec']): HTTPRoute['spec'] => ({ ...spec, parentRefs: [{ name: 'edge', namespace: 'store', ...parent }] });

/** The eight edits of a serving route a new user tries, besides `/b` to `/b*`, with the condition each must give. */
const INVALID_EDITS: readonly {
  readonly name: string;
  readonly edit: (spec: HTTPRoute['spec']) => HTTPRoute['spec'];
  readonly type: string;
  readonly reason: string;
  readonly says: string;
}[] = [
  {
    name: 'PathPrefix /b to /b*',
    edit: withRule({ matches: [{ path: { type: 'PathPrefix', value: '/b*' } }] }),
    type: 'Accepted',
    reason: 'UnsupportedValue',
    says: 'path PathPrefix /b* contains "*"',
  },
  {
    name: 'backendRef to a core Service',
    edit: withRule({ backendRefs: [{ name: 'web', port: 8080 }] }),
    type: 'ResolvedRefs',
    reason: 'InvalidKind',
    says: 'web',
  },
  {
    name: 'backendRef to another namespace without a ReferenceGrant',
    edit: withRule({ backendRefs: [backend('web', { namespace: 'team-x' })] }),
    type: 'ResolvedRefs',
    reason: 'RefNotPermitted',
    says: 'team-x',
  },
  {
    name: 'backendRef to a missing ServiceImport',
    edit: withRule({ backendRefs: [backend('nosuch')] }),
    type: 'ResolvedRefs',
    reason: 'BackendNotFound',
    says: 'nosuch',
  },
  {
    name: 'backendRef to a port the ServiceImport does not have',
    edit: withRule({ backendRefs: [backend('web', { port: 9090 })] }),
    type: 'ResolvedRefs',
    reason: 'BackendNotFound',
    says: '9090',
  },
  {
    name: 'parentRef sectionName that matches nothing',
    edit: withParent({ sectionName: 'nosuch' }),
    type: 'Accepted',
    reason: 'NoMatchingParent',
    says: 'nosuch',
  },
  {
    name: 'a hostname no listener takes',
    edit: (spec) => ({ ...spec, hostnames: ['other.example.com'] }),
    type: 'Accepted',
    reason: 'NoMatchingListenerHostname',
    says: 'other.example.com',
  },
  {
    name: 'a RegularExpression path',
    edit: withRule({ matches: [{ path: { type: 'RegularExpression', value: '/b/.*' } }] }),
    type: 'Accepted',
    reason: 'UnsupportedValue',
    says: 'RegularExpression (/b/.*)',
  },
  {
    name: 'one of two rules dropped',
    edit: (spec) => ({
      ...spec,
      rules: [...(spec.rules ?? []), { matches: [{ path: { type: 'PathPrefix', value: '/b2*' } }], backendRefs: [backend('web')] }],
    }),
    type: 'Accepted',
    reason: 'UnsupportedValue',
    says: 'Dropped Rule(s): rule 1',
  },
];

function parentConditions(result: ResolveResult, team: string): readonly VerdictCondition[] {
  return result.verdicts.routes.find((r) => r.name === team)?.parents[0]?.conditions ?? [];
}
const condition = (result: ResolveResult, team: string, type: string) => parentConditions(result, team).find((c) => c.type === type);
const hashOf = (inputs: HubInputs): string => {
  const { model } = resolveGateway(inputs);
  if (!model) throw new Error('expected a model');
  return modelHash(model);
};
const rulesOf = (result: ResolveResult, team: string) => result.model?.routes.find((r) => r.name === team)?.rules;

describe('an invalid edit of a programmed route', () => {
  const programmed = hashOf(baseline());

  it.each(INVALID_EDITS)('$name: the model stays as programmed; the status names the problem and "serving generation 1"', ({ edit, type, reason, says }) => {
    const result = resolveGateway(edited(baseline(), 'team-b', edit));
    expect(result.model && modelHash(result.model)).toBe(programmed);
    const failed = condition(result, 'team-b', type);
    expect(failed).toMatchObject({ status: 'False', reason, observedGeneration: 2 });
    expect(failed?.message).toContain(says);
    expect(failed?.message).toContain('generation 2 is not served: serving generation 1');
    // Every condition of the entry is of the current generation, and none claims a partial success.
    expect(parentConditions(result, 'team-b').every((c) => c.observedGeneration === 2 && c.type !== 'PartiallyInvalid')).toBe(true);
    expect(acceptedSpecsDue(edited(baseline(), 'team-b', edit), result).map((r) => r.metadata.name)).toEqual([]);
  });

  it('property: any invalid edits of any routes leave the model as programmed, and every valid edit of another route applies', () => {
    const teams = Object.keys(TEAMS);
    fc.assert(
      fc.property(fc.subarray(teams, { minLength: 1 }), fc.nat(), fc.boolean(), (broken, pick, aMoves) => {
        const valid = teams.find((t) => !broken.includes(t));
        let inputs = baseline();
        let expected = baseline();
        broken.forEach((team, i) => {
          inputs = edited(inputs, team, (INVALID_EDITS[(pick + i) % INVALID_EDITS.length] as (typeof INVALID_EDITS)[number]).edit);
        });
        if (valid && aMoves) {
          const move = withRule({ matches: [{ path: { type: 'PathPrefix', value: `/moved-${valid}` } }] });
          inputs = edited(inputs, valid, move);
          expected = edited(expected, valid, move);
        }
        expect(hashOf(inputs)).toBe(hashOf(expected));
      }),
      { numRuns: 60 },
    );
  });

  it('a hostname AFD cannot take as a custom domain holds too (Accepted=False naming it)', () => {
    const wildcard = (inputs: HubInputs): HubInputs => ({
      ...inputs,
      gateway: {
        ...inputs.gateway,
        spec: {
          ...inputs.gateway.spec,
          listeners: [{ name: 'http', protocol: 'HTTP', port: 80, hostname: '*.example.com', allowedRoutes: { namespaces: { from: 'All' } } }],
        },
      },
    });
    const host = `${'a'.repeat(70)}.example.com`;
    const result = resolveGateway(edited(wildcard(baseline()), 'team-b', (spec) => ({ ...spec, hostnames: [host, 'b.example.com'] })));
    expect(result.model && modelHash(result.model)).toBe(hashOf(wildcard(baseline())));
    const refused = condition(result, 'team-b', 'Accepted');
    expect(refused).toMatchObject({ status: 'False', reason: 'UnsupportedValue', observedGeneration: 2 });
    expect(refused?.message).toContain(`hostnames not served: AFD custom domains have labels of at most 63 characters; ${'a'.repeat(70)} in ${host} has 70`);
    expect(refused?.message).toContain('serving generation 1');
  });

  it('a valid edit is served as usual, and its generation is due to be recorded', () => {
    const inputs = edited(baseline(), 'team-b', withRule({ matches: [{ path: { type: 'PathPrefix', value: '/b2' } }] }));
    const result = resolveGateway(inputs);
    expect(rulesOf(result, 'team-b')?.[0]?.matches[0]?.path).toEqual({ type: 'PathPrefix', value: '/b2' });
    expect(condition(result, 'team-b', 'Accepted')).toMatchObject({ status: 'True', observedGeneration: 2 });
    expect(condition(result, 'team-b', 'Accepted')?.message).not.toContain('serving generation');
    expect(acceptedSpecsDue(inputs, result).map((r) => `${r.metadata.name}@${r.metadata.generation}`)).toEqual(['team-b@2']);
  });

  it('a route never accepted in full is not programmed: without a record, an invalid route stays out of the model', () => {
    const inputs = edited(baseline(), 'team-b', withRule({ matches: [{ path: { type: 'PathPrefix', value: '/b*' } }] }));
    const unrecorded = {
      ...inputs,
      httpRoutes: (inputs.httpRoutes ?? []).map((r) => (r.metadata.name === 'team-b' ? { ...r, metadata: { ...r.metadata, annotations: {} } } : r)),
    };
    const result = resolveGateway(unrecorded);
    expect(result.model?.routes.map((r) => r.name)).toEqual(['team-a', 'team-c']);
    expect(condition(result, 'team-b', 'Accepted')?.message).not.toContain('serving generation');
  });

  it("another Gateway's record, another route's of the same name (UID), or a record resolve cannot read is no record", () => {
    const breaking = edited(baseline(), 'team-b', withRule({ matches: [{ path: { type: 'PathPrefix', value: '/b*' } }] }));
    const withRecord = (value: string) => ({
      ...breaking,
      httpRoutes: (breaking.httpRoutes ?? []).map((r) =>
        r.metadata.name === 'team-b' ? { ...r, metadata: { ...r.metadata, annotations: { [acceptedSpecKey(GATEWAY)]: value } } } : r,
      ),
    });
    const accepted = route('team-b', '/b');
    const records = [
      acceptedSpecValue(accepted, 'store/other'),
      acceptedSpecValue({ ...accepted, metadata: { ...accepted.metadata, uid: 'uid-before' } }, GATEWAY),
      'not json',
      JSON.stringify({ gateway: GATEWAY, uid: 'uid-team-b', generation: 1, spec: { rules: 'all' } }),
      // Passes the shape check, breaks the path conversion (a value that is not a string).
      JSON.stringify({
        gateway: GATEWAY,
        uid: 'uid-team-b',
        generation: 1,
        spec: { parentRefs: [{ name: 'edge', namespace: 'store' }], rules: [{ matches: [{ path: { value: 5 } }] }] },
      }),
    ];
    for (const value of records) {
      const result = resolveGateway(withRecord(value));
      expect(result.model?.routes.map((r) => r.name)).toEqual(['team-a', 'team-c']);
    }
    expect(
      readAcceptedSpec(withRecord(acceptedSpecValue(accepted, GATEWAY)).httpRoutes?.find((r) => r.metadata.name === 'team-b') as HTTPRoute, GATEWAY)
        ?.generation,
    ).toBe(1);
  });
});

describe('changes outside the route withdraw exactly as today, held or not', () => {
  const withoutImport = (inputs: HubInputs): HubInputs => ({
    ...inputs,
    serviceImports: (inputs.serviceImports ?? []).filter((si) => si.metadata.namespace !== 'team-b'),
    internalServiceExports: (inputs.internalServiceExports ?? []).filter((e) => e.spec?.serviceReference.namespace !== 'team-b'),
  });
  const breakPath = withRule({ matches: [{ path: { type: 'PathPrefix', value: '/b*' } }] });

  it('the ServiceImport gone: the accepted generation withdraws its rule (an error, never another team’s backend)', () => {
    const unchanged = resolveGateway(withoutImport(baseline()));
    expect(rulesOf(unchanged, 'team-b')?.[0]).toMatchObject({ withdrawn: 'NoValidBackends' });
    expect(condition(unchanged, 'team-b', 'ResolvedRefs')?.message).not.toContain('serving generation');
    // Held by an invalid edit, the served generation meets the same fate.
    const held = resolveGateway(withoutImport(edited(baseline(), 'team-b', breakPath)));
    expect(rulesOf(held, 'team-b')?.[0]).toMatchObject({ withdrawn: 'NoValidBackends', matches: [{ path: { type: 'PathPrefix', value: '/b' } }] });
    expect(condition(held, 'team-b', 'ResolvedRefs')?.message).toContain('rule 0 is withdrawn (NoValidBackends)');
    expect(held.model && modelHash(held.model)).toBe(unchanged.model && modelHash(unchanged.model));
  });

  it('a missing ServiceImport named by an edit holds; the same one gone without an edit withdraws', () => {
    const edit = withRule({ backendRefs: [backend('nosuch')] });
    expect(hashOf(edited(baseline(), 'team-b', edit))).toBe(hashOf(baseline()));
    const gone = { ...baseline(), serviceImports: (baseline().serviceImports ?? []).filter((si) => si.metadata.namespace !== 'team-b') };
    expect(rulesOf(resolveGateway(gone), 'team-b')?.[0]?.withdrawn).toBe('NoValidBackends');
  });

  it('allowedRoutes narrowed, or the parentRef removed: the route leaves the Gateway, edited or not', () => {
    const narrowed = (inputs: HubInputs): HubInputs => ({
      ...inputs,
      gateway: {
        ...inputs.gateway,
        spec: {
          ...inputs.gateway.spec,
          listeners: [{ name: 'http', protocol: 'HTTP', port: 80, hostname: 'store.example.com', allowedRoutes: { namespaces: { from: 'Same' } } }],
        },
      },
    });
    for (const inputs of [narrowed(baseline()), narrowed(edited(baseline(), 'team-b', breakPath))]) {
      const result = resolveGateway(inputs);
      expect(result.model?.routes ?? []).toEqual([]);
      expect(condition(result, 'team-b', 'Accepted')).toMatchObject({ status: 'False', reason: 'NotAllowedByListeners' });
      expect(condition(result, 'team-b', 'Accepted')?.message).not.toContain('serving generation');
    }
    const detached = resolveGateway(edited(baseline(), 'team-b', (spec) => ({ ...spec, parentRefs: [] })));
    expect(detached.model?.routes.map((r) => r.name)).toEqual(['team-a', 'team-c']);
    expect(detached.verdicts.routes.map((r) => r.name)).toEqual(['team-a', 'team-c']);
  });

  it('a ReferenceGrant revoked: the accepted cross-namespace reference withdraws its rule', () => {
    const grant: ReferenceGrant = {
      apiVersion: 'gateway.networking.k8s.io/v1beta1',
      kind: 'ReferenceGrant',
      metadata: { namespace: 'team-x', name: 'from-b' },
      spec: {
        from: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', namespace: 'team-b' }],
        to: [{ group: FLEET, kind: 'ServiceImport', name: 'web' }],
      },
    };
    const crossRoute = recorded({
      ...route('team-b', '/b'),
      spec: {
        ...route('team-b', '/b').spec,
        rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/b' } }], backendRefs: [backend('web', { namespace: 'team-x' })] }],
      },
    });
    const granted: HubInputs = {
      ...baseline(),
      referenceGrants: [grant],
      httpRoutes: (baseline().httpRoutes ?? []).map((r) => (r.metadata.name === 'team-b' ? crossRoute : r)),
    };
    expect(rulesOf(resolveGateway(granted), 'team-b')?.[0]?.withdrawn).toBeUndefined();
    for (const inputs of [granted, edited(granted, 'team-b', breakPath)]) {
      const revoked = resolveGateway({ ...inputs, referenceGrants: [] });
      expect(rulesOf(revoked, 'team-b')?.[0]).toMatchObject({ withdrawn: 'NoValidBackends', matches: [{ path: { type: 'PathPrefix', value: '/b' } }] });
    }
  });
});
