/**
 * ARM throughput of the emulator on this machine, measured with a raw keep-alive HTTPS client (not the SDK), with
 * throttling off and operations that end within the request. The emulator runs in its own process (the CLI),
 * as it does beside the agents, unless --in-process is given.
 *
 *   pnpm tsx tools/azure-emulator/src/bench/arm-throughput.ts [--requests 5000] [--concurrency 32] [--in-process]
 */
import { parseArgs } from 'node:util';
import { start } from '../emulator.js';
import { RawArmClient } from '../raw-arm-client.js';
import { expectStatus, startEmulatorProcess } from './emulator-process.js';

const SUB = '00000000-0000-0000-0000-0000000bench';
const PROFILE = `/subscriptions/${SUB}/resourceGroups/bench/providers/Microsoft.Cdn/profiles/bench`;
const Q = '?api-version=2024-02-01';
const GROUPS = 100;

interface Target {
  armEndpoint: string;
  caCertificate: string;
  stop(): Promise<void>;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      requests: { type: 'string', default: '5000' },
      concurrency: { type: 'string', default: '32' },
      'in-process': { type: 'boolean', default: false },
    },
  });
  const requests = Number(values.requests);
  const concurrency = Number(values.concurrency);
  if (!Number.isInteger(requests) || requests < 1) throw new Error(`--requests must be a positive integer; got '${values.requests}'.`);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`--concurrency must be a positive integer; got '${values.concurrency}'.`);
  const target = values['in-process'] ? await inProcess() : await childProcess();
  const client = new RawArmClient(target.armEndpoint, target.caCertificate, concurrency);
  try {
    await expectStatus(client.send('PUT', `/subscriptions/${SUB}/resourcegroups/bench?api-version=2021-04-01`, { location: 'eastus' }), 201);
    await expectStatus(client.send('PUT', `${PROFILE}${Q}`, { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } }), 201);
    for (let i = 0; i < GROUPS; i++) await expectStatus(client.send('PUT', `${PROFILE}/originGroups/og-${i}${Q}`, groupBody(i)), 201);
    await run('warm-up GET', client, Math.min(1000, requests), concurrency, (i) => ['GET', `${PROFILE}/originGroups/og-${i % GROUPS}${Q}`]);
    const get = await run('GET origin group', client, requests, concurrency, (i) => ['GET', `${PROFILE}/originGroups/og-${i % GROUPS}${Q}`]);
    const put = await run('PUT origin group', client, requests, concurrency, (i) => ['PUT', `${PROFILE}/originGroups/og-${i % GROUPS}${Q}`, groupBody(i)]);
    const list = await run('GET list (100/page)', client, Math.ceil(requests / 10), concurrency, () => ['GET', `${PROFILE}/originGroups${Q}`]);
    console.log(JSON.stringify({ mode: values['in-process'] ? 'in-process' : 'child-process', concurrency, results: [get, put, list] }, null, 2));
  } finally {
    client.close();
    await target.stop();
  }
}

function groupBody(i: number): unknown {
  return {
    properties: {
      loadBalancingSettings: { sampleSize: 4, successfulSamplesRequired: 3, additionalLatencyInMilliseconds: 50 + (i % 7) },
      healthProbeSettings: { probePath: '/healthz', probeProtocol: 'Http', probeRequestType: 'HEAD', probeIntervalInSeconds: 100 },
    },
  };
}

async function run(
  label: string,
  client: RawArmClient,
  count: number,
  concurrency: number,
  request: (i: number) => [string, string, unknown?],
): Promise<{ label: string; requests: number; perSecond: number; p50ms: number; p99ms: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < count) {
      const [method, path, body] = request(next++);
      const sent = performance.now();
      const response = await client.send(method, path, body);
      latencies.push(performance.now() - sent);
      if (response.status >= 300) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(response.body)}`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number): number => Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) / 100;
  const result = { label, requests: count, perSecond: Math.round(count / seconds), p50ms: at(0.5), p99ms: at(0.99) };
  console.error(`${label}: ${result.perSecond} req/s (p50 ${result.p50ms} ms, p99 ${result.p99ms} ms)`);
  return result;
}

async function inProcess(): Promise<Target> {
  const emulator = await start({ throttling: false, lroDelayMs: 0 });
  return { armEndpoint: emulator.armEndpoint, caCertificate: emulator.caCertificate, stop: () => emulator.stop() };
}

function childProcess(): Promise<Target> {
  return startEmulatorProcess(['--no-throttling', '--lro-delay-ms', '0']);
}

main().catch((error: Error) => {
  console.error(error.message);
  process.exitCode = 1;
});
