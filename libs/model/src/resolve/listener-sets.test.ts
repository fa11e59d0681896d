import { describe, expect, it } from 'vitest';
import type { ListenerSet } from '@fleet-gateway/api-types';
import { httpsListener, listenerSet, sharedGatewayInputs, teamRoute } from '../test-support/listener-sets.js';
import type { HubInputs } from './hub-inputs.js';
import { resolveGateway } from './resolve-gateway.js';
import type { ResolveResult } from './resolve-result.js';
import type { VerdictCondition } from '../verdicts/verdict-types.js';

const teamA = listenerSet('team-a', 'a', [httpsListener('https', 'a.example.com')], '2026-02-01T00:00:00Z');
const teamB = listenerSet('team-b', 'b', [httpsListener('https', 'b.example.com')], '2026-02-02T00:00:00Z');

function resolveWith(sets: readonly ListenerSet[], extra: Partial<HubInputs> = {}): ResolveResult {
  const inputs = sharedGatewayInputs();
  return resolveGateway({
    ...inputs,
    listenerSets: sets,
    httpRoutes: [...(inputs.httpRoutes ?? []), teamRoute('team-a', 'a'), teamRoute('team-b', 'b')],
    ...extra,
  });
}

const setVerdict = (result: ResolveResult, name: string) => result.verdicts.listenerSets?.find((s) => s.name === name);
const condition = (conditions: readonly VerdictCondition[] | undefined, type: string) => conditions?.find((c) => c.type === type);
const routeParent = (result: ResolveResult, namespace: string) => result.verdicts.routes.find((r) => r.namespace === namespace)?.parents[0];
const servedHosts = (result: ResolveResult) => [...new Set(result.model?.routing.map((h) => `${h.protocol} ${h.hostname}`))].sort();

describe('ListenerSets attached to a shared Gateway', () => {
  it('two teams, two ListenerSets: both accepted, their hosts served through their routes, counted on the Gateway', () => {
    const result = resolveWith([teamB, teamA]);
    for (const name of ['a', 'b']) {
      const verdict = setVerdict(result, name);
      expect(condition(verdict?.conditions, 'Accepted')).toMatchObject({ status: 'True', reason: 'Accepted', observedGeneration: 1 });
      expect(condition(verdict?.conditions, 'Programmed')).toBeUndefined();
      expect(verdict?.listeners).toHaveLength(1);
      expect(verdict?.listeners[0]).toMatchObject({
        name: 'https',
        attachedRoutes: 1,
        supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }],
      });
      expect(condition(verdict?.listeners[0]?.conditions, 'Conflicted')).toMatchObject({ status: 'False', reason: 'NoConflicts' });
    }
    // The spec's precedence: the older ListenerSet first, whatever the order of the inputs.
    expect(result.verdicts.listenerSets?.map((s) => s.name)).toEqual(['a', 'b']);
    expect(result.verdicts.gateway?.attachedListenerSets).toBe(2);
    expect(servedHosts(result)).toEqual(['HTTP store.example.com', 'HTTPS a.example.com', 'HTTPS b.example.com', 'HTTPS store.example.com']);
    expect(result.model?.listeners.map((l) => l.name)).toEqual(['ListenerSet/team-a/a/https', 'ListenerSet/team-b/b/https', 'http', 'https']);
    expect(result.model?.listeners.find((l) => l.hostname === 'a.example.com')?.source).toEqual({
      kind: 'ListenerSet',
      namespace: 'team-a',
      name: 'a',
      section: 'https',
    });
    expect(condition(routeParent(result, 'team-a')?.conditions, 'Accepted')).toMatchObject({ status: 'True', reason: 'Accepted' });
    // The Gateway's own listener of the same name counts its own route only.
    expect(result.verdicts.gateway?.listeners.find((l) => l.name === 'https')?.attachedRoutes).toBe(1);
  });

  it('a team route serves only the host of its own ListenerSet, never the Gateway’s', () => {
    const result = resolveWith([teamA]);
    const route = result.model?.routes.find((r) => r.namespace === 'team-a');
    expect(route?.hostnames).toEqual(['a.example.com']);
    expect(route?.listeners).toEqual(['ListenerSet/team-a/a/https']);
  });

  it('allowedListeners unset (None): NotAllowed on Accepted and Programmed, no listener status, nothing served, routes not attached', () => {
    const inputs = sharedGatewayInputs();
    const gateway = { ...inputs.gateway, spec: { ...inputs.gateway.spec, allowedListeners: undefined } };
    const result = resolveWith([teamA], { gateway });
    const verdict = setVerdict(result, 'a');
    expect(condition(verdict?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'NotAllowed' });
    expect(condition(verdict?.conditions, 'Accepted')).toHaveProperty('message', expect.stringContaining('spec.allowedListeners.namespaces.from is None'));
    expect(condition(verdict?.conditions, 'Programmed')).toMatchObject({ status: 'False', reason: 'NotAllowed' });
    expect(verdict?.listeners).toEqual([]);
    expect(result.verdicts.gateway?.attachedListenerSets).toBe(0);
    expect(servedHosts(result)).toEqual(['HTTP store.example.com', 'HTTPS store.example.com']);
    expect(condition(routeParent(result, 'team-a')?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'NotAllowedByListeners' });
    // The Gateway itself is as it was.
    expect(condition(result.verdicts.gateway?.conditions, 'Accepted')).toMatchObject({ status: 'True', reason: 'Accepted' });
  });

  it('from: Same admits the Gateway’s namespace only; from: Selector the namespaces whose labels match', () => {
    const inputs = sharedGatewayInputs();
    const own = listenerSet('store', 'own', [httpsListener('https', 'own.example.com')]);
    const same = { ...inputs.gateway, spec: { ...inputs.gateway.spec, allowedListeners: { namespaces: { from: 'Same' as const } } } };
    const bySame = resolveWith([teamA, own], { gateway: same });
    expect(condition(setVerdict(bySame, 'own')?.conditions, 'Accepted')?.status).toBe('True');
    expect(condition(setVerdict(bySame, 'a')?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'NotAllowed' });

    const selector = { matchLabels: { 'gateway-access': 'edge' } };
    const bySelector = { ...inputs.gateway, spec: { ...inputs.gateway.spec, allowedListeners: { namespaces: { from: 'Selector' as const, selector } } } };
    const namespaces = [{ name: 'team-a', labels: { 'gateway-access': 'edge' } }, { name: 'team-b' }];
    const result = resolveWith([teamA, teamB], { gateway: bySelector, namespaces });
    expect(condition(setVerdict(result, 'a')?.conditions, 'Accepted')?.status).toBe('True');
    expect(condition(setVerdict(result, 'b')?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'NotAllowed' });
  });

  it('the same host in two ListenerSets: the newer one’s listener is Conflicted (HostnameConflict), the older keeps serving', () => {
    const clash = listenerSet('team-b', 'b', [httpsListener('https', 'a.example.com'), httpsListener('other', 'b.example.com')], '2026-02-02T00:00:00Z');
    const result = resolveWith([clash, teamA]);
    const b = setVerdict(result, 'b');
    expect(condition(b?.listeners[0]?.conditions, 'Conflicted')).toMatchObject({ status: 'True', reason: 'HostnameConflict' });
    expect(condition(b?.listeners[0]?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'HostnameConflict' });
    expect(condition(b?.listeners[0]?.conditions, 'Programmed')).toMatchObject({ status: 'False', reason: 'HostnameConflict' });
    // No word of the other team's objects beyond that an earlier ListenerSet holds it.
    expect(condition(b?.listeners[0]?.conditions, 'Conflicted')).toHaveProperty('message', expect.not.stringContaining('team-a'));
    expect(condition(b?.listeners[1]?.conditions, 'Accepted')?.status).toBe('True');
    expect(condition(b?.conditions, 'Accepted')).toMatchObject({ status: 'True', reason: 'ListenersNotValid' });
    expect(condition(setVerdict(result, 'a')?.conditions, 'Accepted')).toMatchObject({ status: 'True', reason: 'Accepted' });
    expect(result.model?.listeners.map((l) => l.name)).toContain('ListenerSet/team-a/a/https');
    expect(result.model?.listeners.map((l) => l.name)).not.toContain('ListenerSet/team-b/b/https');

    // Age decides: made older, b holds the host and a is the conflicted one.
    const older = { ...clash, metadata: { ...clash.metadata, creationTimestamp: '2026-01-15T00:00:00Z' } };
    const swapped = resolveWith([older, teamA]);
    expect(condition(setVerdict(swapped, 'a')?.listeners[0]?.conditions, 'Conflicted')?.status).toBe('True');
    expect(condition(setVerdict(swapped, 'b')?.listeners[0]?.conditions, 'Conflicted')?.status).toBe('False');
  });

  it('a ListenerSet listener on a host of the Gateway’s own listener conflicts; the Gateway’s listener never does', () => {
    const taking = listenerSet('team-a', 'a', [httpsListener('https', 'store.example.com')]);
    const result = resolveWith([taking]);
    expect(condition(setVerdict(result, 'a')?.listeners[0]?.conditions, 'Conflicted')).toMatchObject({ status: 'True', reason: 'HostnameConflict' });
    expect(condition(setVerdict(result, 'a')?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'ListenersNotValid' });
    expect(condition(setVerdict(result, 'a')?.conditions, 'Programmed')).toMatchObject({ status: 'False', reason: 'ListenersNotValid' });
    for (const l of result.verdicts.gateway?.listeners ?? []) expect(condition(l.conditions, 'Conflicted')?.status).toBe('False');
    expect(result.verdicts.gateway?.attachedListenerSets).toBe(0);
  });

  it('a listener in error takes no place: a later team’s listener on the same host is not conflicted', () => {
    const broken = listenerSet('team-a', 'a', [{ name: 'https', protocol: 'HTTPS', port: 443, hostname: 'x.example.com', tls: { mode: 'Terminate' } }]);
    const later = listenerSet('team-b', 'b', [httpsListener('https', 'x.example.com')], '2026-03-01T00:00:00Z');
    const result = resolveWith([broken, later]);
    expect(condition(setVerdict(result, 'a')?.listeners[0]?.conditions, 'ResolvedRefs')).toMatchObject({ status: 'False', reason: 'InvalidCertificateRef' });
    expect(condition(setVerdict(result, 'b')?.listeners[0]?.conditions, 'Conflicted')?.status).toBe('False');
    expect(condition(setVerdict(result, 'b')?.conditions, 'Accepted')?.status).toBe('True');
  });

  it('sectionName selects a listener of the ListenerSet; one it lacks is NoMatchingParent, naming the ListenerSet', () => {
    const inputs = sharedGatewayInputs();
    const routes = [teamRoute('team-a', 'a', 'missing')];
    const result = resolveWith([teamA], { httpRoutes: [...(inputs.httpRoutes ?? []), ...routes] });
    expect(condition(routeParent(result, 'team-a')?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'NoMatchingParent' });
    expect(condition(routeParent(result, 'team-a')?.conditions, 'Accepted')).toHaveProperty(
      'message',
      'no listener of ListenerSet a matches sectionName missing',
    );
    expect(setVerdict(result, 'a')?.listeners[0]?.attachedRoutes).toBe(0);
  });

  it('allowedRoutes Same of a ListenerSet listener is the ListenerSet’s namespace', () => {
    const inputs = sharedGatewayInputs();
    const route = {
      ...teamRoute('team-b', 'a'),
      spec: { ...teamRoute('team-b', 'a').spec, parentRefs: [{ kind: 'ListenerSet', name: 'a', namespace: 'team-a' }] },
    };
    const result = resolveWith([teamA], { httpRoutes: [...(inputs.httpRoutes ?? []), teamRoute('team-a', 'a'), route] });
    expect(condition(routeParent(result, 'team-a')?.conditions, 'Accepted')?.status).toBe('True');
    expect(condition(routeParent(result, 'team-b')?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'NotAllowedByListeners' });
  });

  it('a Gateway not accepted leaves its ListenerSets ParentNotAccepted', () => {
    const inputs = sharedGatewayInputs();
    const gateway = { ...inputs.gateway, metadata: { ...inputs.gateway.metadata, annotations: { 'networking.fleet.azure.com/afd-sku': 'Basic' } } };
    const result = resolveWith([teamA], { gateway });
    expect(condition(result.verdicts.gateway?.conditions, 'Accepted')?.status).toBe('False');
    expect(condition(setVerdict(result, 'a')?.conditions, 'Accepted')).toMatchObject({ status: 'False', reason: 'ParentNotAccepted' });
    expect(condition(setVerdict(result, 'a')?.conditions, 'Programmed')).toMatchObject({ status: 'False', reason: 'ParentNotProgrammed' });
  });

  it('ListenerSets of another Gateway are ignored; with none, the verdicts carry no ListenerSet field', () => {
    const elsewhere = { ...teamA, spec: { ...teamA.spec, parentRef: { name: 'other', namespace: 'store' } } };
    const result = resolveWith([elsewhere]);
    expect(result.verdicts.listenerSets).toBeUndefined();
    expect(result.verdicts.gateway?.attachedListenerSets).toBeUndefined();
  });

  describe('hostnames across Gateways: a ListenerSet listener is a custom domain of its Gateway’s profile', () => {
    const base = sharedGatewayInputs();
    const other = {
      ...base.gateway,
      metadata: { ...base.gateway.metadata, name: 'other', uid: 'other-uid', creationTimestamp: '2025-01-01T00:00:00Z' },
      spec: { ...base.gateway.spec, listeners: [{ name: 'https', protocol: 'HTTPS', port: 443, hostname: 'x.example.com' }] },
    };
    const heldBy = (set: ListenerSet, generation = 1): ListenerSet => ({
      ...set,
      status: {
        listeners: set.spec.listeners.map((l) => ({
          name: l.name,
          attachedRoutes: 0,
          conditions: [
            {
              type: 'Conflicted',
              status: 'False',
              reason: 'NoConflicts',
              message: '',
              lastTransitionTime: '2026-01-01T00:00:00Z',
              observedGeneration: generation,
            },
          ],
        })),
      },
    });
    const othersSet = {
      ...listenerSet('team-z', 'z', [httpsListener('https', 'store.example.com')]),
      spec: { parentRef: { name: 'other', namespace: 'store' }, listeners: [httpsListener('https', 'store.example.com')] },
    } as ListenerSet;

    it('another Gateway’s ListenerSet listener holding a hostname makes this Gateway’s listener on it Conflicted', () => {
      const result = resolveWith([], { otherGateways: [other], otherListenerSets: [heldBy(othersSet)] });
      const https = result.verdicts.gateway?.listeners.find((l) => l.name === 'https');
      expect(condition(https?.conditions, 'Conflicted')).toMatchObject({ status: 'True', reason: 'HostnameConflict' });
      expect(condition(https?.conditions, 'Conflicted')?.message).toContain('held by Gateway store/other (listener ListenerSet/team-z/z/https)');
    });

    it('one its Gateway has not judged holding the hostname (no status yet) claims nothing here', () => {
      const result = resolveWith([], { otherGateways: [other], otherListenerSets: [othersSet] });
      const https = result.verdicts.gateway?.listeners.find((l) => l.name === 'https');
      expect(condition(https?.conditions, 'Conflicted')?.status).toBe('False');
    });

    it('this Gateway’s ListenerSet listener holding a hostname keeps it from an older Gateway claiming it later', () => {
      const mine = listenerSet('team-a', 'a', [httpsListener('https', 'x.example.com')]);
      const kept = resolveWith([heldBy(mine)], { otherGateways: [other] });
      expect(condition(setVerdict(kept, 'a')?.listeners[0]?.conditions, 'Conflicted')?.status).toBe('False');
      // Not yet holding it, the older Gateway's claim comes first.
      const lost = resolveWith([mine], { otherGateways: [other] });
      expect(condition(setVerdict(lost, 'a')?.listeners[0]?.conditions, 'Conflicted')).toMatchObject({ status: 'True', reason: 'HostnameConflict' });
      expect(condition(setVerdict(lost, 'a')?.listeners[0]?.conditions, 'Conflicted')?.message).toContain('held by Gateway store/other');
    });
  });
});
