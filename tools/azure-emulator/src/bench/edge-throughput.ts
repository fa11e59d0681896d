/**
 * Edge throughput of the emulator on this machine: keep-alive requests through the edge to a local backend, on a
 * route without rule sets and on one whose rule set holds 10 rules that all run for every request (none stops, each
 * with a header or query condition, the last editing request and response headers). Each run measures both routes
 * back to back, in turns which goes first, so that a busy machine's swings fall on both alike; prints min/median/max
 * requests/s of each and the median of the runs' costs (1 − with/without; target: under 20 %). On a shared machine
 * those swing by tens of percent either way, so it also times the rule evaluation alone (the same 10 rules, the same
 * request, in this process) and gives its share of a request's time at the median rate without rules.
 *
 *   pnpm tsx tools/azure-emulator/src/bench/edge-throughput.ts [--requests 2000] [--concurrency 16] [--runs 9]
 */
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { compileRuleSet, evaluateRules } from '../edge/rules-engine.js';
import { RawArmClient } from '../raw-arm-client.js';
import { expectStatus, startEmulatorProcess } from './emulator-process.js';

const SUB = '00000000-0000-0000-0000-0000000bench';
const PROFILE = `/subscriptions/${SUB}/resourceGroups/bench/providers/Microsoft.Cdn/profiles/bench`;
const Q = '?api-version=2024-02-01';
const RULES = 10;
const GROUP_ID = `${PROFILE}/originGroups/og`;

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { requests: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '16' }, runs: { type: 'string', default: '9' } },
  });
  const [requests, concurrency, runs] = (['requests', 'concurrency', 'runs'] as const).map((name) => {
    const value = Number(values[name]);
    if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer; got '${values[name]}'.`);
    return value;
  }) as [number, number, number];
  const backend = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  const emulator = await startEmulatorProcess(['--no-throttling', '--lro-delay-ms', '0', '--edge-delays', '0']);
  const client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate, 4);
  try {
    const hosts = await configure(client, (backend.address() as AddressInfo).port);
    await fetch(`${emulator.adminUrl}/edge/propagated`, { method: 'POST' });
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
    const headers = { 'x-variant': 'none', 'x-client': 'bench' };
    const load = (host: string, count: number): Promise<number> =>
      edgeLoad({ edgeUrl: emulator.edgeUrl, host, path: '/shop/item?page=2', headers, agent }, count, concurrency);
    await load(hosts.plain, Math.min(1000, requests));
    await load(hosts.ruled, Math.min(1000, requests));
    const figures = { plain: [] as number[], ruled: [] as number[] };
    const costs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const order = run % 2 === 0 ? (['plain', 'ruled'] as const) : (['ruled', 'plain'] as const);
      for (const which of order) figures[which].push(await load(hosts[which], requests));
      costs.push(Math.round((1 - (figures.ruled.at(-1) as number) / (figures.plain.at(-1) as number)) * 1000) / 10);
      console.error(`run ${run + 1}: without rules ${figures.plain.at(-1)} req/s, with ${RULES} rules ${figures.ruled.at(-1)} req/s (cost ${costs.at(-1)} %)`);
    }
    const plain = summary(figures.plain);
    const evaluationMicroseconds = timeEvaluation(headers);
    console.log(
      JSON.stringify(
        {
          requests,
          concurrency,
          runs,
          withoutRules: plain,
          [`with${RULES}Rules`]: summary(figures.ruled),
          rulesCostPercent: summary(costs),
          evaluationMicrosecondsPerRequest: evaluationMicroseconds,
          evaluationShareOfRequestPercent: Math.round(evaluationMicroseconds * plain.median * 1e-4 * 100) / 100,
        },
        null,
        2,
      ),
    );
    agent.destroy();
  } finally {
    client.close();
    await emulator.stop();
    backend.close();
  }
}

/** Microseconds one evaluation of the benchmark's rules takes for the benchmark's request (median of 5 × 20,000). */
function timeEvaluation(headers: Record<string, string>): number {
  const rules = compileRuleSet(Array.from({ length: RULES }, (_, i) => ({ name: `rule${i + 1}`, properties: rule(i + 1) })));
  const request = { method: 'GET', scheme: 'Http' as const, host: 'ruled', path: '/shop/item', query: 'page=2', headers };
  const samples = Array.from({ length: 5 }, () => {
    const started = performance.now();
    for (let i = 0; i < 20_000; i++) evaluateRules(rules, request, 0);
    return ((performance.now() - started) * 1000) / 20_000;
  });
  return Math.round((summary(samples).median as number) * 100) / 100;
}

function summary(perSecond: number[]): { min: number; median: number; max: number } {
  const sorted = [...perSecond].sort((a, b) => a - b);
  return { min: sorted[0] as number, median: sorted[Math.floor(sorted.length / 2)] as number, max: sorted[sorted.length - 1] as number };
}

/** One profile, one origin group with the backend, two endpoints: `plain` without rule sets, `ruled` with one of 10 rules. */
async function configure(client: RawArmClient, backendPort: number): Promise<{ plain: string; ruled: string }> {
  await expectStatus(client.send('PUT', `/subscriptions/${SUB}/resourcegroups/bench?api-version=2021-04-01`, { location: 'eastus' }), 201);
  await expectStatus(client.send('PUT', `${PROFILE}${Q}`, { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } }), 201);
  await expectStatus(
    client.send('PUT', `${GROUP_ID}${Q}`, {
      properties: { loadBalancingSettings: { sampleSize: 4, successfulSamplesRequired: 3, additionalLatencyInMilliseconds: 50 } },
    }),
    201,
  );
  await expectStatus(
    client.send('PUT', `${GROUP_ID}/origins/backend${Q}`, { properties: { hostName: '127.0.0.1', httpPort: backendPort, enabledState: 'Enabled' } }),
    201,
  );
  await expectStatus(client.send('PUT', `${PROFILE}/ruleSets/bench${Q}`), 201);
  for (let i = 1; i <= RULES; i++) await expectStatus(client.send('PUT', `${PROFILE}/ruleSets/bench/rules/rule${i}${Q}`, { properties: rule(i) }), 201);
  const hosts: Record<string, string> = {};
  for (const name of ['plain', 'ruled']) {
    const endpoint = await expectStatus(
      client.send('PUT', `${PROFILE}/afdEndpoints/${name}${Q}`, { location: 'global', properties: { enabledState: 'Enabled' } }),
      201,
    );
    hosts[name] = (endpoint.body as { properties: { hostName: string } }).properties.hostName;
    const ruleSets = name === 'ruled' ? [{ id: `${PROFILE}/ruleSets/bench` }] : [];
    const route = {
      originGroup: { id: GROUP_ID },
      ruleSets,
      patternsToMatch: ['/*'],
      supportedProtocols: ['Http', 'Https'],
      forwardingProtocol: 'HttpOnly',
      linkToDefaultDomain: 'Enabled',
    };
    await expectStatus(client.send('PUT', `${PROFILE}/afdEndpoints/${name}/routes/default${Q}`, { properties: route }), 201);
  }
  return { plain: hosts.plain as string, ruled: hosts.ruled as string };
}

/** Rules 1–9 test a header (odd) or the query string with a RegEx (even) and do not match; rule 10 matches every request. */
function rule(i: number): Record<string, unknown> {
  const override = {
    name: 'RouteConfigurationOverride',
    parameters: {
      typeName: 'DeliveryRuleRouteConfigurationOverrideActionParameters',
      originGroupOverride: { originGroup: { id: GROUP_ID }, forwardingProtocol: 'HttpOnly' },
    },
  };
  const header = (headerAction: string, headerName: string, value: string, name = 'ModifyRequestHeader') => ({
    name,
    parameters: { typeName: 'DeliveryRuleHeaderActionParameters', headerAction, headerName, value },
  });
  if (i === RULES) {
    return {
      order: i,
      conditions: [],
      actions: [
        header('Overwrite', 'x-bench', 'ruled'),
        header('Append', 'x-client', '-edge'),
        header('Overwrite', 'cache-control', 'no-store', 'ModifyResponseHeader'),
      ],
      matchProcessingBehavior: 'Continue',
    };
  }
  const condition =
    i % 2 === 1
      ? {
          name: 'RequestHeader',
          parameters: {
            typeName: 'DeliveryRuleRequestHeaderConditionParameters',
            selector: 'x-variant',
            operator: 'Equal',
            matchValues: [`v${i}`],
            transforms: ['Lowercase'],
          },
        }
      : {
          name: 'QueryString',
          parameters: { typeName: 'DeliveryRuleQueryStringConditionParameters', operator: 'RegEx', matchValues: [`(^|&)variant=v${i}(&|$)`] },
        };
  return { order: i, conditions: [condition], actions: [override], matchProcessingBehavior: 'Continue' };
}

interface LoadTarget {
  edgeUrl: string;
  host: string;
  path: string;
  headers: Record<string, string>;
  agent: Agent;
}

/** Sends `count` requests, `concurrency` at a time; answers requests/s. Any answer but 200 ends the benchmark. */
async function edgeLoad(target: LoadTarget, count: number, concurrency: number): Promise<number> {
  const url = new URL(target.path, target.edgeUrl);
  let sent = 0;
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const req = request(url, { agent: target.agent, headers: { ...target.headers, host: target.host } }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`the edge answered ${res.statusCode} for ${target.host}`))));
      });
      req.on('error', reject);
      req.end();
    });
  const worker = async (): Promise<void> => {
    while (sent < count) {
      sent += 1;
      await one();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  return Math.round(count / ((performance.now() - started) / 1000));
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
