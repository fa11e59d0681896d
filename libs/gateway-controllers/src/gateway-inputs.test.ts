import { ObjectStore } from '@fleet-gateway/controller';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import type { CachedGateway, CachedGatewayClass } from './gateway-api-resources.js';
import { gatewayClassOf, GATEWAYS_BY_CLASS, GATEWAYS_BY_HOSTNAME, listenerHostnamesOf, ROUTES_BY_PARENT } from './gateway-indexes.js';
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
});
