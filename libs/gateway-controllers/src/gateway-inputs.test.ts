import { ObjectStore } from '@fleet-gateway/controller';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import type { CachedGateway, CachedGatewayClass, CachedHTTPRoute, CachedListenerSet } from './gateway-api-resources.js';
import {
  gatewayClassOf,
  GATEWAYS_BY_CLASS,
  GATEWAYS_BY_HOSTNAME,
  LISTENER_SETS_BY_HOSTNAME,
  LISTENER_SETS_BY_PARENT,
  listenerHostnamesOf,
  listenerSetHostnamesOf,
  parentGatewayOfListenerSet,
  parentGatewaysOf,
  parentListenerSetsOf,
  ROUTES_BY_PARENT,
  ROUTES_BY_PARENT_LISTENER_SET,
} from './gateway-indexes.js';
import { collectHubInputs, type GatewayStores } from './gateway-inputs.js';

const gatewayClass = (name: string, controllerName: string) => ({ metadata: { name }, spec: { controllerName } }) as unknown as CachedGatewayClass;
const gateway = (name: string, className: string, hostnames: readonly string[]) =>
  ({
    metadata: { namespace: 'infra', name, uid: `uid-${name}` },
    spec: { gatewayClassName: className, listeners: hostnames.map((hostname, i) => ({ name: `l${i}`, protocol: 'HTTP', port: 80, hostname })) },
  }) as unknown as CachedGateway;

describe('collectHubInputs', () => {
  it('hands resolve the other Gateways of our classes whose hostnames can contest this one’s, found through the hostname index', () => {
    const gatewayClasses = new ObjectStore<CachedGatewayClass>();
    gatewayClasses.upsert(gatewayClass('afd', CONTROLLER_NAME));
    gatewayClasses.upsert(gatewayClass('nginx', 'example.com/nginx'));
    const gateways = new ObjectStore<CachedGateway>({ [GATEWAYS_BY_CLASS]: gatewayClassOf, [GATEWAYS_BY_HOSTNAME]: listenerHostnamesOf });
    const self = gateway('self', 'afd', ['shop.contoso.com']);
    for (const g of [
      self,
      gateway('same-host', 'afd', ['shop.contoso.com']),
      gateway('wildcard', 'afd', ['*.contoso.com']),
      gateway('deeper', 'afd', ['a.shop.contoso.com']),
      gateway('elsewhere', 'afd', ['shop.fabrikam.com']),
      gateway('other-controller', 'nginx', ['shop.contoso.com']),
    ]) {
      gateways.upsert(g);
    }
    const empty = () => new ObjectStore({ [ROUTES_BY_PARENT]: () => [] });
    const stores = {
      gatewayClasses,
      gateways,
      httpRoutes: empty(),
      referenceGrants: empty(),
      serviceImports: empty(),
      internalServiceExports: empty(),
      namespaces: empty(),
    } as unknown as GatewayStores;
    const inputs = collectHubInputs(stores, self, 'Standard_AzureFrontDoor');
    expect((inputs.otherGateways ?? []).map((g) => g.metadata.name).sort()).toEqual(['same-host', 'wildcard']);
  });

  it('hands resolve the ListenerSets naming the Gateway, the routes naming them, their namespaces, and other Gateways reached through ListenerSets', () => {
    const gatewayClasses = new ObjectStore<CachedGatewayClass>();
    gatewayClasses.upsert(gatewayClass('afd', CONTROLLER_NAME));
    const gateways = new ObjectStore<CachedGateway>({ [GATEWAYS_BY_CLASS]: gatewayClassOf, [GATEWAYS_BY_HOSTNAME]: listenerHostnamesOf });
    const self = gateway('self', 'afd', ['shop.contoso.com']);
    const neighbour = gateway('neighbour', 'afd', ['other.fabrikam.com']);
    for (const g of [self, neighbour]) gateways.upsert(g);
    const set = (namespace: string, name: string, parent: string, hostname: string) =>
      ({
        metadata: { namespace, name },
        spec: { parentRef: { name: parent, namespace: 'infra' }, listeners: [{ name: 'l', protocol: 'HTTP', port: 80, hostname }] },
      }) as unknown as CachedListenerSet;
    const listenerSets = new ObjectStore<CachedListenerSet>({
      [LISTENER_SETS_BY_PARENT]: parentGatewayOfListenerSet,
      [LISTENER_SETS_BY_HOSTNAME]: listenerSetHostnamesOf,
    });
    const mine = set('team-a', 'mine', 'self', 'a.example.com');
    // The neighbour's ListenerSet holds a hostname this Gateway's ListenerSet wants: only through it is the neighbour found.
    const theirs = set('team-b', 'theirs', 'neighbour', 'a.example.com');
    for (const s of [mine, theirs]) listenerSets.upsert(s);
    const route = (namespace: string, parentRefs: object[]) =>
      ({ metadata: { namespace, name: 'r', uid: `r-${namespace}` }, spec: { parentRefs } }) as unknown as CachedHTTPRoute;
    const httpRoutes = new ObjectStore<CachedHTTPRoute>({ [ROUTES_BY_PARENT]: parentGatewaysOf, [ROUTES_BY_PARENT_LISTENER_SET]: parentListenerSetsOf });
    // A route naming both the Gateway and its ListenerSet is handed over once.
    for (const r of [
      route('team-a', [
        { kind: 'ListenerSet', name: 'mine' },
        { name: 'self', namespace: 'infra' },
      ]),
      route('team-c', [{ kind: 'ListenerSet', name: 'mine' }]),
    ])
      httpRoutes.upsert(r);
    const namespaces = new ObjectStore();
    for (const name of ['team-a', 'team-b', 'team-c']) namespaces.upsert({ metadata: { name, labels: { team: name } } });
    const empty = () => new ObjectStore();
    const stores = {
      gatewayClasses,
      gateways,
      httpRoutes,
      referenceGrants: empty(),
      serviceImports: empty(),
      internalServiceExports: empty(),
      namespaces,
      listenerSets,
    } as unknown as GatewayStores;
    const inputs = collectHubInputs(stores, self, 'Standard_AzureFrontDoor');
    expect(inputs.listenerSets?.map((s) => s.metadata.name)).toEqual(['mine']);
    expect(inputs.httpRoutes?.map((r) => r.metadata.namespace).sort()).toEqual(['team-a']);
    expect(inputs.namespaces?.map((n) => n.name)).toEqual(['team-a']);
    expect(inputs.otherGateways?.map((g) => g.metadata.name)).toEqual(['neighbour']);
    expect(inputs.otherListenerSets?.map((s) => s.metadata.name)).toEqual(['theirs']);
    // Without a ListenerSet store (a hub without ListenerSets), none of them is read.
    const { listenerSets: _none, ...unserved } = stores;
    const plain = collectHubInputs(unserved as GatewayStores, self, 'Standard_AzureFrontDoor');
    expect(plain.listenerSets).toBeUndefined();
    expect(plain.otherGateways).toEqual([]);
  });
});
