import { customDomainName } from '@fleet-gateway/azure-frontdoor';
import { edgeTlsRequest } from '@fleet-gateway/azure-emulator';
import type { ListenerSet } from '@fleet-gateway/api-types';
import { NEWEST_GATEWAY_API_VERSION } from '@fleet-gateway/control-plane';
import { objectPath } from '@fleet-gateway/controller';
import { eventually } from '@fleet-gateway/controller/test-support';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenerSets } from './gateway-api-resources.js';
import { EdgeProbe, gone, profileOf } from './test-support/hub-probes.js';
import {
  applyObject,
  conditionOf,
  gatewayBody,
  gatewayPath,
  publishExport,
  readGateway,
  readRoute,
  routeBody,
  routePath,
  SCOPE,
  startHubUnderTest,
  type HubUnderTest,
} from './test-support/hub-under-test.js';

const TEAMS = ['team-a', 'team-b', 'team-c'];
let hub: HubUnderTest;
let edge: EdgeProbe;

beforeAll(async () => {
  hub = await startHubUnderTest({ gatewayApiVersion: NEWEST_GATEWAY_API_VERSION, namespaces: TEAMS });
  await hub.startAgent({ resyncPeriodMs: 400 });
  edge = new EdgeProbe(hub);
}, 120_000);
afterAll(async () => {
  await hub?.stop();
  await edge?.close();
});

const HOSTS = { 'team-a': 'a.contoso.example', 'team-b': 'b.contoso.example' } as const;
const setPath = (namespace: string, name: string) => objectPath(listenerSets, name, namespace);
const readSet = (namespace: string, name: string) => hub.client.get<ListenerSet>(setPath(namespace, name));

function listenerSetBody(namespace: string, name: string, gateway: string, hostname: string) {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'ListenerSet',
    metadata: { name, namespace },
    spec: {
      parentRef: { name: gateway, namespace: 'shop' },
      listeners: [
        {
          name: 'https',
          protocol: 'HTTPS',
          port: 443,
          hostname,
          tls: { mode: 'Terminate', options: { 'networking.fleet.azure.com/afd-certificate': 'managed' } },
        },
      ],
    },
  };
}

/** A team's route through its ListenerSet to its own ServiceImport. */
function teamRouteBody(namespace: string, set: string, service: string) {
  const body = routeBody('app', set, [{ path: '/', backends: [{ name: service }] }], namespace);
  return { ...body, spec: { ...body.spec, parentRefs: [{ group: 'gateway.networking.k8s.io', kind: 'ListenerSet', name: set }] } };
}

async function domainsOf(gateway: string): Promise<string[]> {
  const names: string[] = [];
  for await (const d of hub.clients.cdn.afdCustomDomains.listByProfile(SCOPE.resourceGroup, await profileOf(hub, gateway))) names.push(d.hostName ?? '');
  return names.sort();
}

const listenerOf = (set: ListenerSet | undefined) => set?.status?.listeners?.[0];

/** What the edge answers for `host` over HTTPS, asked until it is 200 (an edge may not have taken a change yet). */
const servedOverHttps = (host: string) =>
  eventually(
    () => edgeTlsRequest(hub.emulator.edgeTlsUrl, host, '/', hub.emulator.caCertificate).catch(() => ({ status: 0, body: '', certificateSubject: '' })),
    (r) => r.status === 200,
    30_000,
  );

describe('ListenerSets on a v1.6 hub, the real API server and the emulator', { timeout: 180_000 }, () => {
  it('two teams, two ListenerSets, two host names, one Gateway: two custom domains, each ListenerSet programmed, both hosts served', async () => {
    await applyObject(hub.client, gatewayPath('shared'), gatewayBody('shared', {}, [{ name: 'http' }], { allowedListeners: { namespaces: { from: 'All' } } }));
    for (const [team, host] of Object.entries(HOSTS)) {
      const address = team === 'team-a' ? '10.7.0.1' : '10.7.0.2';
      await edge.serveAt(address, `${team}@member-1`);
      await publishExport(hub.client, { cluster: 'member-1', service: 'app', publicAddress: address, namespace: team });
      await applyObject(hub.client, setPath(team, team), listenerSetBody(team, team, 'shared', host));
      await applyObject(hub.client, routePath('app', team), teamRouteBody(team, team, 'app'));
    }
    // Each listener awaits AFD's validation of its custom domain, and says which DNS records to create.
    for (const team of Object.keys(HOSTS)) {
      const pending = await eventually(
        () => readSet(team, team),
        (s) => conditionOf(listenerOf(s), 'Programmed')?.reason === 'Pending' && listenerOf(s)?.attachedRoutes === 1,
        90_000,
      );
      expect(conditionOf(pending, 'Accepted')).toMatchObject({ status: 'True', reason: 'Accepted', observedGeneration: 1 });
      expect(conditionOf(pending, 'Programmed')).toMatchObject({ status: 'True', reason: 'Programmed' });
      expect(conditionOf(listenerOf(pending), 'Programmed')?.message).toContain(`_dnsauth.${HOSTS[team as keyof typeof HOSTS]}`);
      expect(listenerOf(pending)?.supportedKinds).toEqual([{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }]);
      const route = await readRoute(hub.client, 'app', team);
      const parent = route.status?.parents?.find((p) => p.controllerName === CONTROLLER_NAME);
      expect(parent?.parentRef).toMatchObject({ kind: 'ListenerSet', name: team });
      expect(conditionOf(parent, 'Accepted')).toMatchObject({ status: 'True' });
    }
    expect(await domainsOf('shared')).toEqual(Object.values(HOSTS).sort());
    expect((await readGateway(hub.client, 'shared')).status?.attachedListenerSets).toBe(2);

    for (const host of Object.values(HOSTS)) {
      const domain = await hub.clients.cdn.afdCustomDomains.get(SCOPE.resourceGroup, await profileOf(hub, 'shared'), customDomainName(host));
      hub.emulator.admin.validateCustomDomain(domain.id as string);
    }
    for (const team of Object.keys(HOSTS)) {
      const programmed = await eventually(
        () => readSet(team, team),
        (s) => conditionOf(listenerOf(s), 'Programmed')?.status === 'True',
        90_000,
      );
      expect(conditionOf(listenerOf(programmed), 'Programmed')?.message).toBe('listener is programmed');
    }
    await hub.emulator.admin.whenPropagated();
    for (const [team, host] of Object.entries(HOSTS)) {
      expect(await servedOverHttps(host)).toMatchObject({ status: 200, certificateSubject: host, body: `${team}@member-1` });
    }
  });

  it('a newer ListenerSet claiming a host another holds is Conflicted alone: the holder keeps serving, no custom domain is added', async () => {
    await applyObject(hub.client, setPath('team-c', 'copycat'), listenerSetBody('team-c', 'copycat', 'shared', HOSTS['team-a']));
    const conflicted = await eventually(
      () => readSet('team-c', 'copycat'),
      (s) => conditionOf(listenerOf(s), 'Conflicted')?.status === 'True',
      60_000,
    );
    expect(conditionOf(listenerOf(conflicted), 'Conflicted')).toMatchObject({ reason: 'HostnameConflict' });
    expect(conditionOf(listenerOf(conflicted), 'Programmed')).toMatchObject({ status: 'False', reason: 'HostnameConflict' });
    expect(conditionOf(listenerOf(conflicted), 'Conflicted')?.message).not.toContain('team-a');
    expect(conditionOf(conflicted, 'Accepted')).toMatchObject({ status: 'False', reason: 'ListenersNotValid' });
    expect(conditionOf(conflicted, 'Programmed')).toMatchObject({ status: 'False', reason: 'ListenersNotValid' });
    const holder = await readSet('team-a', 'team-a');
    expect(conditionOf(listenerOf(holder), 'Conflicted')?.status).toBe('False');
    expect(conditionOf(listenerOf(holder), 'Programmed')?.status).toBe('True');
    expect(await domainsOf('shared')).toEqual(Object.values(HOSTS).sort());
    expect((await readGateway(hub.client, 'shared')).status?.attachedListenerSets).toBe(2);
    expect(await servedOverHttps(HOSTS['team-a'])).toMatchObject({ status: 200, certificateSubject: HOSTS['team-a'], body: 'team-a@member-1' });
  });

  it('a Gateway that does not allow ListenerSets (allowedListeners unset) leaves them NotAllowed, with nothing in Azure', async () => {
    await applyObject(hub.client, gatewayPath('closed'), gatewayBody('closed', {}, [{ name: 'http' }]));
    await applyObject(hub.client, setPath('team-c', 'knocking'), listenerSetBody('team-c', 'knocking', 'closed', 'c.contoso.example'));
    const refused = await eventually(
      () => readSet('team-c', 'knocking'),
      (s) => conditionOf(s, 'Accepted')?.reason === 'NotAllowed',
      60_000,
    );
    expect(conditionOf(refused, 'Accepted')).toMatchObject({ status: 'False', reason: 'NotAllowed' });
    expect(conditionOf(refused, 'Programmed')).toMatchObject({ status: 'False', reason: 'NotAllowed' });
    expect(refused.status?.listeners ?? []).toEqual([]);
    const gateway = await eventually(
      () => readGateway(hub.client, 'closed'),
      (g) => conditionOf(g, 'Programmed')?.status === 'True',
      60_000,
    );
    expect(gateway.status?.attachedListenerSets).toBe(0);
    expect(await domainsOf('closed')).toEqual([]);
  });

  it('deleting a ListenerSet removes its custom domain only; the other team keeps serving', async () => {
    await hub.client.delete(setPath('team-b', 'team-b'));
    await eventually(
      () => domainsOf('shared'),
      (domains) => !domains.includes(HOSTS['team-b']),
      60_000,
    );
    expect(await domainsOf('shared')).toEqual([HOSTS['team-a']]);
    expect(await gone(() => readSet('team-b', 'team-b'))).toBe(true);
    const gateway = await eventually(
      () => readGateway(hub.client, 'shared'),
      (g) => g.status?.attachedListenerSets === 1,
      30_000,
    );
    expect(gateway.status?.attachedListenerSets).toBe(1);
    // The route still names the ListenerSet; no one speaks for it any more, so our entry about it goes.
    const orphan = await eventually(
      () => readRoute(hub.client, 'app', 'team-b'),
      (r) => !(r.status?.parents ?? []).some((p) => p.controllerName === CONTROLLER_NAME),
      30_000,
    );
    expect(orphan.status?.parents ?? []).toEqual([]);
    expect(await servedOverHttps(HOSTS['team-a'])).toMatchObject({ status: 200, certificateSubject: HOSTS['team-a'], body: 'team-a@member-1' });
  });

  it('another Gateway claiming a host name a ListenerSet holds is Conflicted, with no custom domain; the team keeps serving', async () => {
    await applyObject(hub.client, gatewayPath('latecomer'), gatewayBody('latecomer', {}, [{ name: 'https', hostname: HOSTS['team-a'], https: true }]));
    const late = await eventually(
      () => readGateway(hub.client, 'latecomer'),
      (g) => conditionOf(g.status?.listeners?.[0], 'Conflicted')?.status === 'True',
      60_000,
    );
    expect(conditionOf(late.status?.listeners?.[0], 'Conflicted')).toMatchObject({ reason: 'HostnameConflict' });
    expect(conditionOf(late.status?.listeners?.[0], 'Conflicted')?.message).toContain('held by Gateway shop/shared (listener ListenerSet/team-a/team-a/https)');
    const holder = await readSet('team-a', 'team-a');
    expect(conditionOf(listenerOf(holder), 'Conflicted')?.status).toBe('False');
    expect(await domainsOf('shared')).toEqual([HOSTS['team-a']]);
    // Its only listener conflicted, the Gateway is not accepted and has no profile at all: nothing reached Azure.
    expect(await domainsOf('latecomer').catch((error: { statusCode?: number }) => (error.statusCode === 404 ? [] : Promise.reject(error)))).toEqual([]);
    expect(await servedOverHttps(HOSTS['team-a'])).toMatchObject({ status: 200, certificateSubject: HOSTS['team-a'], body: 'team-a@member-1' });
  });
});
