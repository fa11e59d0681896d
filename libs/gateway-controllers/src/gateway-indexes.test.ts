import { acceptedSpecKey, acceptedSpecValue, CONTROLLER_NAME } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import type { CachedGateway, CachedHTTPRoute, CachedListenerSet } from './gateway-api-resources.js';
import {
  backendServiceImportsOf,
  heldHostnamesOf,
  heldListenerSetHostnamesOf,
  listenerHostnamesOf,
  listenerSetHostnamesOf,
  parentGatewayOfListenerSet,
  parentGatewaysOf,
  parentListenerSetsOf,
  statusParentGatewaysOf,
  statusParentListenerSetsOf,
  withListenerSetStatusOf,
} from './gateway-indexes.js';
import { routeParentEntries, routeParentRule } from './route-status.js';

const route = {
  apiVersion: 'gateway.networking.k8s.io/v1',
  kind: 'HTTPRoute',
  metadata: { namespace: 'team-a', name: 'r' },
  spec: {
    parentRefs: [
      { name: 'gw' },
      { name: 'shared', namespace: 'infra', sectionName: 'http' },
      { name: 'shared', namespace: 'infra', sectionName: 'https' },
      { group: 'example.com', kind: 'Mesh', name: 'm' },
    ],
    rules: [
      {
        backendRefs: [
          { group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'web', port: 80 },
          { name: 'svc', port: 80 },
        ],
      },
      { backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'api', namespace: 'backend', port: 80 }] },
    ],
  },
  status: {
    parents: [
      { controllerName: CONTROLLER_NAME, parentRef: { name: 'old' }, conditions: [] },
      { controllerName: 'example.com/other', parentRef: { name: 'gw' }, conditions: [] },
    ],
  },
} as unknown as CachedHTTPRoute;

describe('the Gateway controller’s indexes', () => {
  it('files a route under each Gateway it names (defaulting namespace, group and kind), once, and nothing else', () => {
    expect(parentGatewaysOf(route)).toEqual(['team-a/gw', 'infra/shared']);
  });

  it('files a route under the Gateways our status entries are about, so a detached route gets them cleared', () => {
    expect(statusParentGatewaysOf(route)).toEqual(['team-a/old']);
  });

  it('files a route naming ListenerSets under each of them, apart from Gateways of the same name', () => {
    const throughSets = {
      ...route,
      spec: {
        ...route.spec,
        parentRefs: [
          { kind: 'ListenerSet', name: 'gw' },
          { group: 'gateway.networking.k8s.io', kind: 'ListenerSet', name: 's', namespace: 'infra' },
        ],
      },
      status: { parents: [{ controllerName: CONTROLLER_NAME, parentRef: { kind: 'ListenerSet', name: 'gone' }, conditions: [] }] },
    } as unknown as CachedHTTPRoute;
    expect(parentListenerSetsOf(throughSets)).toEqual(['team-a/gw', 'infra/s']);
    expect(parentGatewaysOf(throughSets)).toEqual([]);
    expect(statusParentListenerSetsOf(throughSets)).toEqual(['team-a/gone']);
    expect(withListenerSetStatusOf(throughSets)).toEqual(['any']);
    expect(withListenerSetStatusOf(route)).toEqual([]);
    expect(parentListenerSetsOf(route)).toEqual([]);
  });

  it('files a ListenerSet under the Gateway it names and its hostnames under their claim keys', () => {
    const set = {
      metadata: { namespace: 'team-a', name: 's' },
      spec: { parentRef: { name: 'shared', namespace: 'infra' }, listeners: [{ name: 'a', hostname: 'a.contoso.com' }, { name: 'b' }] },
    } as unknown as CachedListenerSet;
    expect(parentGatewayOfListenerSet(set)).toEqual(['infra/shared']);
    expect(parentGatewayOfListenerSet({ ...set, spec: { ...set.spec, parentRef: { kind: 'Other', name: 'x' } } } as CachedListenerSet)).toEqual([]);
    expect(listenerSetHostnamesOf(set)).toEqual(['*.contoso.com']);
  });

  it('tells a ListenerSet taking or letting go of a hostname apart from its other status writes', () => {
    const conflicted = (status: string, observedGeneration: number) => ({
      type: 'Conflicted',
      status,
      reason: '',
      message: '',
      lastTransitionTime: '',
      observedGeneration,
    });
    const withStatus = (conditions: object[]) =>
      ({
        metadata: { namespace: 'team-a', name: 's' },
        spec: { listeners: [] },
        status: { listeners: [{ name: 'a', attachedRoutes: 0, conditions }] },
      }) as unknown as CachedListenerSet;
    expect(heldListenerSetHostnamesOf(withStatus([conflicted('False', 2)]))).toBe('a@2');
    expect(heldListenerSetHostnamesOf(withStatus([conflicted('True', 2)]))).toBe('');
    // Another condition changing (attached routes, Programmed) changes nothing here.
    expect(heldListenerSetHostnamesOf(withStatus([conflicted('False', 2), { ...conflicted('True', 2), type: 'Programmed' }]))).toBe('a@2');
  });

  it('files a route under the ServiceImports it references, in its own namespace unless named', () => {
    expect(backendServiceImportsOf(route)).toEqual(['team-a/web', 'backend/api']);
  });

  it('files a held route under the ServiceImports of the generation a Gateway keeps serving too', () => {
    const accepted = {
      ...route,
      metadata: { ...route.metadata, uid: 'u', generation: 1 },
      spec: {
        parentRefs: [{ name: 'gw' }],
        rules: [{ backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'old-web', port: 80 }] }],
      },
    } as CachedHTTPRoute;
    const held = {
      ...route,
      metadata: { ...route.metadata, uid: 'u', generation: 2, annotations: { [acceptedSpecKey('team-a/gw')]: acceptedSpecValue(accepted, 'team-a/gw') } },
    } as CachedHTTPRoute;
    expect(backendServiceImportsOf(held)).toEqual(['team-a/web', 'backend/api', 'team-a/old-web']);
  });

  it('files a Gateway under the claim key of each listener hostname once, and under none for a listener without one (it claims nothing)', () => {
    const listeners = [
      { name: 'a', hostname: 'shop.example.com' },
      { name: 'b', hostname: '*.example.com' },
      { name: 'c' },
      { name: 'd', hostname: 'api.contoso.com' },
    ];
    const gateway = { metadata: { namespace: 'infra', name: 'gw' }, spec: { gatewayClassName: 'c', listeners } } as unknown as CachedGateway;
    expect(listenerHostnamesOf(gateway)).toEqual(['*.example.com', '*.contoso.com']);
  });

  it('sums up which hostnames the Gateway’s status says it holds, so that a change of holder wakes the other claimants', () => {
    const listeners = [
      { name: 'a', protocol: 'HTTP', port: 80, hostname: 'shop.example.com' },
      { name: 'b', protocol: 'HTTP', port: 80, hostname: 'api.example.com' },
    ];
    const conflicted = (status: 'True' | 'False') => ({
      type: 'Conflicted',
      status,
      reason: '',
      message: '',
      lastTransitionTime: '2026-01-01T00:00:00Z',
      observedGeneration: 3,
    });
    const gateway = (status: 'True' | 'False') =>
      ({
        metadata: { namespace: 'infra', name: 'gw', generation: 3 },
        spec: { gatewayClassName: 'c', listeners },
        status: { listeners: [{ name: 'a', conditions: [conflicted(status)] }] },
      }) as unknown as CachedGateway;
    expect(heldHostnamesOf(gateway('False'))).toBe('api.example.com=claimed,shop.example.com=held');
    expect(heldHostnamesOf(gateway('True'))).toBe('api.example.com=claimed,shop.example.com=claimed');
  });
});

describe('route parent entries', () => {
  it('owns only our entries about this Gateway, whatever other controllers write', () => {
    const rule = routeParentRule('team-a', 'team-a/gw');
    expect(rule.isOurs({ controllerName: CONTROLLER_NAME, parentRef: { name: 'gw' }, conditions: [] })).toBe(true);
    expect(rule.isOurs({ controllerName: CONTROLLER_NAME, parentRef: { name: 'gw', namespace: 'team-a', sectionName: 'x' }, conditions: [] })).toBe(true);
    expect(rule.isOurs({ controllerName: CONTROLLER_NAME, parentRef: { name: 'old' }, conditions: [] })).toBe(false);
    expect(rule.isOurs({ controllerName: 'example.com/other', parentRef: { name: 'gw' }, conditions: [] })).toBe(false);
  });

  it('writes one entry per parentRef as written, with our controllerName', () => {
    const condition = { type: 'Accepted', status: 'True', reason: 'Accepted', message: 'ok', observedGeneration: 1 } as const;
    const entries = routeParentEntries({
      namespace: 'team-a',
      name: 'r',
      parents: [{ parentRef: { name: 'gw', sectionName: 'http' }, conditions: [condition] }],
    });
    expect(entries).toEqual([{ parentRef: { name: 'gw', sectionName: 'http' }, controllerName: CONTROLLER_NAME, conditions: [condition] }]);
  });
});
