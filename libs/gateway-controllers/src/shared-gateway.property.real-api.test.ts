import { eventually } from '@fleet-gateway/controller/test-support';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AZURE_PROGRAMMED_CONDITION } from './route-status.js';
import { armWrites, EdgeProbe, eventsAbout, linesWithStackTraces, programmedOf, whenProgrammed } from './test-support/hub-probes.js';
import {
  APP_NAMESPACE,
  applyObject,
  conditionOf,
  gatewayBody,
  gatewayPath,
  readGateway,
  readRoute,
  routeBody,
  routePath,
  startHubUnderTest,
  type HubUnderTest,
  type RuleFixture,
} from './test-support/hub-under-test.js';
import { allowStatus, refuseStatus, whenStatusRefused } from './test-support/status-refusal.js';

/**
 * The shared-Gateway property: teams share one Gateway, each with its own HTTPRoute and backends. In each run one
 * team's object is poisoned in one way while every other team makes an ordinary change in the same window. Every other
 * team's change is programmed and served through the edge, their traffic never errors, and only the poisoned team's
 * object carries a condition. Counted, not timed: which changes were served, which requests failed, which writes went.
 */
const TEAMS = ['team-a', 'team-b', 'team-c', 'team-d'] as const;
type Team = (typeof TEAMS)[number];
const GATEWAY = 'shared';
const HELD_HOST = 'held.shared.example';

let hub: HubUnderTest;
let edge: EdgeProbe;
let host = '';

/** Each team's backends: `-web` its base rule's, `-new` its ordinary changes', `-poison` the poisoned change's. */
const BACKENDS = ['web', 'new', 'poison'] as const;
const addressOf = (team: Team, backend: (typeof BACKENDS)[number]) => `10.9.${TEAMS.indexOf(team) + 1}.${BACKENDS.indexOf(backend) + 1}`;
const baseRules = (team: Team): RuleFixture[] => [{ path: `/${team}`, backends: [{ name: `${team}-web` }] }];
const ours = (route: Awaited<ReturnType<typeof readRoute>>) => route.status?.parents?.find((p) => p.controllerName === CONTROLLER_NAME);

const applyRoute = (team: Team, rules: readonly RuleFixture[], extraSpec: Record<string, unknown> = {}) => {
  const body = routeBody(team, GATEWAY, rules);
  return applyObject(hub.client, routePath(team), { ...body, spec: { ...body.spec, ...extraSpec } });
};

beforeAll(async () => {
  // ARM attempts are cut after 2 s here, so a hung call costs a run seconds, not the default 90 s.
  hub = await startHubUnderTest({ retry: { baseDelayMs: 1, maxDelayMs: 5, requestTimeoutMs: 2_000, maxRetries: 2 } });
  await hub.startAgent();
  edge = new EdgeProbe(hub);
  for (const team of TEAMS) for (const kind of BACKENDS) await edge.publishServed(`${team}-${kind}`, addressOf(team, kind));
  await applyObject(hub.client, gatewayPath(GATEWAY), gatewayBody(GATEWAY));
  for (const team of TEAMS) await applyRoute(team, baseRules(team));
  host = (await whenProgrammed(hub, GATEWAY, [...TEAMS], 60_000)).status?.addresses?.[0]?.value ?? '';
  for (const team of TEAMS) await edge.answers(`/${team}/page`, host, `${team}-web@member-1`);
  // Another team's Gateway holding a host name, for the run that claims it twice.
  await applyObject(hub.client, gatewayPath('holder'), gatewayBody('holder', {}, [{ name: 'held', hostname: HELD_HOST }]));
  await whenProgrammed(hub, 'holder');
}, 240_000);
afterAll(async () => {
  await hub?.stop();
  await edge?.close();
});

/** How one team's object is poisoned, how its own change then looks, what it then carries, and how it is mended. */
interface Poison {
  readonly name: string;
  /** Poisons `team`'s object (and makes its own change of the run). */
  apply(team: Team): Promise<void>;
  /** What the poisoned team's object carries once the hub has looked at it. */
  carried(team: Team): Promise<void>;
  mend(team: Team): Promise<void>;
}

const poisonedGroup = (team: Team) => `/originGroups/og-${team}-poison-[^/]+$`;
const withNewRule = (team: Team): RuleFixture[] => [...baseRules(team), { path: `/${team}-poisoned`, backends: [{ name: `${team}-poison` }] }];
const customDomainPuts = () => hub.emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Cdn/profiles/customDomains' });
let customDomainPutsBefore = 0;

const POISONS: readonly Poison[] = [
  {
    name: 'its status refused by admission control',
    async apply(team) {
      await refuseStatus(hub.client, 'gateway.networking.k8s.io', 'httproutes', team);
      await whenStatusRefused(hub.client, `${routePath(team)}/status`);
      await applyRoute(team, withNewRule(team));
    },
    async carried(team) {
      const events = await eventually(
        () => eventsAbout(hub.client, 'HTTPRoute', team),
        (es) => es.some((e) => e.reason === 'StatusWriteFailed'),
        30_000,
      );
      expect(events.find((e) => e.reason === 'StatusWriteFailed')?.note).toContain(`the status for Gateway ${APP_NAMESPACE}/${GATEWAY} could not be written`);
      // Its change reached Azure all the same: only the status is missing.
      await edge.answers(`/${team}-poisoned/page`, host, `${team}-poison@member-1`);
    },
    async mend(team) {
      await allowStatus(hub.client, team);
      await whenStatusRefused(hub.client, `${routePath(team)}/status`, false);
    },
  },
  {
    name: 'its new origin group refused by ARM',
    async apply(team) {
      hub.emulator.admin.injectFault({ kind: 'status', status: 400, method: 'PUT', pathPattern: poisonedGroup(team), count: 1_000 });
      await applyRoute(team, withNewRule(team));
    },
    async carried(team) {
      const route = await eventually(
        () => readRoute(hub.client, team),
        (r) => conditionOf(ours(r), AZURE_PROGRAMMED_CONDITION) !== undefined,
        30_000,
      );
      expect(conditionOf(ours(route), AZURE_PROGRAMMED_CONDITION)).toMatchObject({ status: 'False', reason: 'AzureRefused' });
      expect(conditionOf(ours(route), AZURE_PROGRAMMED_CONDITION)?.message).toMatch(new RegExp(`origin group og-${team}-poison-`));
    },
    async mend() {
      hub.emulator.admin.clearFaults();
    },
  },
  {
    name: 'a hung ARM call on its new origin group',
    async apply(team) {
      // Every attempt of one reconcile hangs (the first and two retries), then ARM answers again.
      hub.emulator.admin.injectFault({ kind: 'hang', method: 'PUT', pathPattern: poisonedGroup(team), count: 3 });
      await applyRoute(team, withNewRule(team));
    },
    async carried(team) {
      // The hung write timed out and was retried later: the team's own change is served in the end.
      await edge.answers(`/${team}-poisoned/page`, host, `${team}-poison@member-1`);
      expect(hub.emulator.admin.requestTotal({ method: 'PUT', status: 0 })).toBeGreaterThan(0);
    },
    async mend() {
      hub.emulator.admin.clearFaults();
    },
  },
  {
    name: 'an invalid edit of its programmed route',
    async apply(team) {
      // PathPrefix values are paths; AFD has no wildcard inside one.
      await applyRoute(team, [{ path: `/${team}*`, backends: [{ name: `${team}-web` }] }]);
    },
    async carried(team) {
      const route = await eventually(
        () => readRoute(hub.client, team),
        (r) => conditionOf(ours(r), 'Accepted')?.observedGeneration === r.metadata.generation,
        30_000,
      );
      const said = (ours(route)?.conditions ?? []).filter((c) => c.status === 'False');
      expect(said.length).toBeGreaterThan(0);
      expect(said.map((c) => c.message).join(' ')).toMatch(/serving generation \d+/);
    },
    async mend() {},
  },
  {
    name: 'a condition message over the CRD’s limit',
    async apply(team) {
      // 15 rules (16 with the base rule, the CRD's most) x 16 references (its most) to missing ServiceImports with
      // 250-character names: a ResolvedRefs message of about 70 KB uncapped, over the CRD's 32,768 characters.
      const missing = (r: number, b: number) => `${'m'.repeat(240)}-${r}-${b}`.slice(0, 250);
      const rules = Array.from({ length: 15 }, (_, r): RuleFixture => ({
        path: `/${team}-many-${r}`,
        backends: Array.from({ length: 16 }, (_, b) => ({ name: missing(r, b) })),
      }));
      await applyRoute(team, [...baseRules(team), ...rules]);
    },
    async carried(team) {
      const route = await eventually(
        () => readRoute(hub.client, team),
        (r) => conditionOf(ours(r), 'ResolvedRefs')?.observedGeneration === r.metadata.generation,
        30_000,
      );
      const message = conditionOf(ours(route), 'ResolvedRefs')?.message ?? '';
      expect(conditionOf(ours(route), 'ResolvedRefs')?.status).toBe('False');
      expect(message.length).toBeLessThanOrEqual(32_768);
      expect(message).toMatch(/… and \d+ more/);
    },
    async mend() {},
  },
  {
    name: 'a host name another team’s Gateway holds',
    async apply(team) {
      customDomainPutsBefore = customDomainPuts();
      await applyObject(hub.client, gatewayPath(`${team}-claim`), gatewayBody(`${team}-claim`, {}, [{ name: 'claim', hostname: HELD_HOST }]));
    },
    async carried(team) {
      const gateway = await eventually(
        () => readGateway(hub.client, `${team}-claim`),
        (g) => conditionOf(g.status?.listeners?.[0], 'Conflicted')?.status === 'True',
        30_000,
      );
      expect(conditionOf(gateway.status?.listeners?.[0], 'Conflicted')?.message).toContain(`held by Gateway ${APP_NAMESPACE}/holder`);
      const holder = await readGateway(hub.client, 'holder');
      expect(conditionOf(holder, 'Programmed')?.status).toBe('True');
      expect(conditionOf(holder.status?.listeners?.[0], 'Conflicted')?.status ?? 'False').toBe('False');
      // No custom domain was asked for the claim (nor for anything else in the run).
      expect(customDomainPuts() - customDomainPutsBefore).toBe(0);
    },
    async mend(team) {
      await hub.client.delete(gatewayPath(`${team}-claim`));
    },
  },
];

/** Bounded traffic to every other team's serving path while the run lasts: each answer that is not that team's backend counts. */
function trafficTo(teams: readonly Team[]) {
  let stop = false;
  const failures: string[] = [];
  let requests = 0;
  const loop = (async () => {
    for (let round = 0; round < 2_000 && !stop; round++) {
      for (const team of teams) {
        const answer = await edge.get(`/${team}/page`, host);
        requests++;
        if (answer.body !== `${team}-web@member-1`) failures.push(`${team}: ${answer.status} ${answer.body.slice(0, 80)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      stop = true;
      await loop;
      return { requests, failures };
    },
  };
}

describe('one team’s poisoned object on a shared Gateway holds back no other team', () => {
  // Which team is poisoned in each run is drawn (fixed seed); every poison runs once, in a drawn order.
  const runs = fc.sample(
    fc.tuple(
      fc.shuffledSubarray([...POISONS.keys()], { minLength: POISONS.length }),
      fc.array(fc.constantFrom(...TEAMS), { minLength: POISONS.length, maxLength: POISONS.length }),
    ),
    { seed: 25, numRuns: 1 },
  )[0]!;
  const plan = runs[0].map((poison, i) => ({ poison: POISONS[poison]!, team: runs[1][i]! }));

  it.each(plan.map((p, run) => ({ ...p, run })))('run $run: $poison.name ($team)', { timeout: 180_000 }, async ({ poison, team, run }) => {
    const others = TEAMS.filter((t) => t !== team);
    const traffic = trafficTo(others);
    try {
      await poison.apply(team);
      // Every other team's ordinary change, in the same window.
      for (const other of others) await applyRoute(other, [...baseRules(other), { path: `/${other}-run-${run}`, backends: [{ name: `${other}-new` }] }]);

      for (const other of others) await edge.answers(`/${other}-run-${run}/page`, host, `${other}-new@member-1`);
      await poison.carried(team);
      // The poisoned team's own serving path keeps serving too.
      expect(await edge.get(`/${team}/page`, host)).toEqual({ status: 200, body: `${team}-web@member-1` });
      const { requests, failures } = await traffic.stop();
      expect(requests).toBeGreaterThan(0);
      expect(failures).toEqual([]);

      // Nothing else carries a condition: every other team's entry is Accepted and resolved, with no Azure condition,
      // and the Gateway stays programmed.
      for (const other of others) {
        const route = await eventually(
          () => readRoute(hub.client, other),
          (r) => conditionOf(ours(r), 'Accepted')?.observedGeneration === r.metadata.generation,
          30_000,
        );
        expect((ours(route)?.conditions ?? []).filter((c) => c.status !== 'True').map((c) => `${c.type} ${c.reason}: ${c.message}`)).toEqual([]);
      }
      expect((await programmedOf(hub, GATEWAY))?.status).toBe('True');
    } finally {
      await traffic.stop();
      // Mended: the team's base configuration again; the others' run rules stay (the next run adds its own).
      await poison.mend(team);
      await applyRoute(team, baseRules(team));
    }
    await edge.answers(`/${team}/page`, host, `${team}-web@member-1`);
    const mended = await eventually(
      () => readRoute(hub.client, team),
      (r) => (ours(r)?.conditions ?? []).every((c) => c.status === 'True' && c.observedGeneration === r.metadata.generation),
      60_000,
    );
    expect((ours(mended)?.conditions ?? []).map((c) => c.type)).not.toContain(AZURE_PROGRAMMED_CONDITION);
    expect(linesWithStackTraces(hub.logs.lines)).toEqual([]);
  });

  it('wrote nothing for an unchanged shared Gateway once every run was mended', async () => {
    const before = armWrites(hub);
    await applyObject(hub.client, gatewayPath(GATEWAY), gatewayBody(GATEWAY, { 'example.com/touched': 'yes' }));
    await eventually(
      () => readGateway(hub.client, GATEWAY),
      (g) => g.metadata.annotations?.['example.com/touched'] === 'yes',
      10_000,
    );
    await whenProgrammed(hub, GATEWAY, [...TEAMS]);
    expect(armWrites(hub) - before).toBe(0);
  });
});
