import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GatewayListener, ListenerSet } from '@fleet-gateway/api-types';
import { httpsListener, listenerSet, sharedGatewayInputs } from '../test-support/listener-sets.js';
import { resolveGateway } from './resolve-gateway.js';
import type { ResolveResult } from './resolve-result.js';

const HOSTS = ['a.example.com', 'b.example.com', '*.example.com', 'store.example.com', 'c.contoso.com'];
const TEAMS = ['team-a', 'team-b', 'team-c'];
const DAYS = ['2026-02-01T00:00:00Z', '2026-02-02T00:00:00Z', '2026-02-03T00:00:00Z'];

const validListener = fc
  .record({ host: fc.constantFrom(...HOSTS), https: fc.boolean() })
  .map(({ host, https }): GatewayListener => (https ? httpsListener('https', host) : { name: 'http', protocol: 'HTTP', port: 80, hostname: host }));

/** Up to 4 ListenerSets of distinct names, each with one or two listeners of distinct names, on a few hosts. */
const listenerSets = fc
  .uniqueArray(fc.record({ team: fc.constantFrom(...TEAMS), name: fc.constantFrom('one', 'two'), created: fc.constantFrom(...DAYS) }), {
    selector: (s) => `${s.team}/${s.name}`,
    minLength: 1,
    maxLength: 4,
  })
  .chain((sets) => fc.tuple(...sets.map((s) => fc.array(validListener, { minLength: 1, maxLength: 2 }).map((ls) => ({ ...s, listeners: ls })))))
  .map((sets) =>
    sets.map(({ team, name, created, listeners }) =>
      listenerSet(
        team,
        name,
        listeners.map((l, i) => ({ ...l, name: `${l.name}-${i}` })),
        created,
      ),
    ),
  );

/** Ways a team gets its ListenerSet wrong, each an error of its own listener. */
const breakages: readonly ((l: GatewayListener) => GatewayListener)[] = [
  (l) => ({ ...l, protocol: 'TCP' }),
  (l) => ({ ...l, port: 8443 }),
  (l) => ({ ...l, protocol: 'HTTPS', port: 443, tls: { mode: 'Terminate' } }),
  (l) => ({ ...l, protocol: 'HTTPS', port: 443, tls: { mode: 'Terminate', certificateRefs: [{ name: 'secret' }] } }),
  (l) => ({ ...l, allowedRoutes: { kinds: [{ kind: 'TCPRoute' }] } }),
];

/** Everything resolve says of one ListenerSet and what the model holds of it. */
function seenOf(result: ResolveResult, set: ListenerSet) {
  const { namespace, name } = set.metadata;
  return {
    verdict: result.verdicts.listenerSets?.find((v) => v.namespace === namespace && v.name === name),
    model: result.model?.listeners.filter((l) => l.source.kind === 'ListenerSet' && l.source.namespace === namespace && l.source.name === name),
  };
}

describe('blast radius of a ListenerSet', () => {
  it('one ListenerSet whose listeners are in error changes nothing of the Gateway’s or any other team’s listeners', () => {
    fc.assert(
      fc.property(listenerSets, fc.nat(), fc.nat(), (sets, pick, how) => {
        const inputs = sharedGatewayInputs();
        const index = pick % sets.length;
        const bad = sets[index] as ListenerSet;
        const breakage = breakages[how % breakages.length] as (l: GatewayListener) => GatewayListener;
        const broken = { ...bad, spec: { ...bad.spec, listeners: bad.spec.listeners.map((l) => breakage(l) as (typeof bad.spec.listeners)[number]) } };
        const without = resolveGateway({ ...inputs, listenerSets: sets.filter((s) => s !== bad) });
        const withBroken = resolveGateway({ ...inputs, listenerSets: sets.map((s) => (s === bad ? broken : s)) });
        expect(withBroken.verdicts.gateway?.conditions).toEqual(without.verdicts.gateway?.conditions);
        expect(withBroken.verdicts.gateway?.listeners).toEqual(without.verdicts.gateway?.listeners);
        for (const other of sets.filter((s) => s !== bad)) expect(seenOf(withBroken, other)).toEqual(seenOf(without, other));
        // The broken one says why, on its own status.
        const own = seenOf(withBroken, broken);
        expect(own.model).toEqual([]);
        expect(own.verdict?.conditions.find((c) => c.type === 'Accepted')).toMatchObject({ status: 'False', reason: 'ListenersNotValid' });
      }),
      { numRuns: 200 },
    );
  });

  it('adding a newer ListenerSet never changes an older one’s or the Gateway’s listeners, whatever it holds', () => {
    fc.assert(
      fc.property(listenerSets, (sets) => {
        const inputs = sharedGatewayInputs();
        const newest = listenerSet(
          'team-z',
          'late',
          [httpsListener('https', 'a.example.com'), httpsListener('h2', 'store.example.com')],
          '2026-12-31T00:00:00Z',
        );
        const before = resolveGateway({ ...inputs, listenerSets: sets });
        const after = resolveGateway({ ...inputs, listenerSets: [...sets, newest] });
        expect(after.verdicts.gateway?.listeners).toEqual(before.verdicts.gateway?.listeners);
        for (const s of sets) expect(seenOf(after, s)).toEqual(seenOf(before, s));
      }),
      { numRuns: 200 },
    );
  });
});
