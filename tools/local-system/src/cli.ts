/**
 * The local system on its embedded default (make local-up / local-down).
 *   up      [--clusters hub,member-1,member-2] [--dir .cache/local-system] [--without-agents] [--gateway-api-version v1.6.3]
 *           (Gateway API release of the clusters: the one given, else GATEWAY_API_VERSION, else the newest supported)
 *           start detached: control planes, the Azure side and (unless --without-agents) both agents and the sample;
 *           wait until the sample serves from every member; progress and the lines to copy on stderr, JSON on stdout
 *   down    [--dir .cache/local-system]   stop exactly what `up` started
 *   backend --cluster member-1 --service shop/web --port 80 --target 127.0.0.1:8080 [--dir ...]
 *           send the edge's traffic for a member Service's address to your backend
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { checkedGatewayApiVersion, GATEWAY_API_VERSIONS } from '@fleet-gateway/control-plane';
import { mapServiceBackend, parseBackendRequest } from './backend.js';
import { startLocalSystem, stopLocalSystem } from './local-system.js';
import { progressReporter } from './progress.js';
import { readRecord } from './state-record.js';
import { CLI, summaryLines } from './summary.js';

const USAGE = `usage: ${CLI} <up|down|backend> [--dir DIR]
  up       [--clusters hub,member-1,member-2] [--without-agents] [--gateway-api-version ${GATEWAY_API_VERSIONS.join('|')}]
  backend  --cluster MEMBER --service NAMESPACE/NAME --port SERVICE_PORT --target HOST:PORT`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    clusters: { type: 'string', default: 'hub,member-1,member-2' },
    dir: { type: 'string', default: '.cache/local-system' },
    'without-agents': { type: 'boolean', default: false },
    'gateway-api-version': { type: 'string' },
    cluster: { type: 'string' },
    service: { type: 'string' },
    port: { type: 'string' },
    target: { type: 'string' },
  },
});
const dir = path.resolve(values.dir);

async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'up': {
      const clusters = values.clusters
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      if (!clusters.includes('hub')) {
        console.error(`--clusters must include "hub", got "${values.clusters}"`);
        return 2;
      }
      const started = Date.now();
      const progress = progressReporter((line) => console.error(line));
      try {
        const chosen = values['gateway-api-version'];
        const system = await startLocalSystem({
          dir,
          clusters,
          withAgents: !values['without-agents'],
          ...(chosen ? { gatewayApiVersion: checkedGatewayApiVersion(chosen, '--gateway-api-version') } : {}),
          log: (line) => progress.log(line),
        });
        progress.log(`the local system is up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
        console.log(
          JSON.stringify(
            {
              kubeconfigs: Object.fromEntries(system.plane.clusters.map((c) => [c.name, c.kubeconfig])),
              azure: system.azure,
              ...(system.agents ? { agents: system.agents } : {}),
              ...(system.endpointHostname ? { endpointHostname: system.endpointHostname } : {}),
              stop: `make local-down (or: ${CLI} down --dir ${dir})`,
            },
            null,
            2,
          ),
        );
        for (const line of summaryLines(system, dir)) console.error(line);
      } finally {
        progress.stop();
      }
      return 0;
    }
    case 'down': {
      const there = existsSync(dir);
      await stopLocalSystem(dir);
      console.error(there ? `stopped the local system in ${dir} and removed the folder` : `no local system in ${dir}; nothing to stop`);
      return 0;
    }
    case 'backend': {
      const request = parseBackendRequest(values);
      const record = await readRecord(dir);
      if (record?.status !== 'running') throw new Error(`no running local system is recorded in ${dir}; start one with make local-up`);
      const { address } = await mapServiceBackend(record, request);
      const service = `${request.namespace}/${request.name} in ${request.cluster}`;
      const target = `${request.target.host}:${request.target.port}`;
      console.error(
        address === undefined
          ? `${service} has no load balancer address yet; the edge sends its port ${request.port} to ${target} as soon as the stand-in gives it one`
          : `the edge now sends traffic for ${address}:${request.port} (${service}) to ${target}`,
      );
      return 0;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

process.exitCode = await main(positionals[0]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  return 1;
});
