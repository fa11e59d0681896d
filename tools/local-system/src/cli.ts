/**
 * The local system on its embedded default (make local-up / local-down).
 *   up   [--clusters hub,member-1,member-2] [--dir .cache/local-system] [--without-agents]
 *        start detached: control planes, the Azure side and (unless --without-agents) both agents and the sample;
 *        wait until the sample serves from every member, print how to reach it
 *   down [--dir .cache/local-system]                                     stop exactly what `up` started
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startLocalSystem, stopLocalSystem } from './local-system.js';
import { summaryLines } from './summary.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    clusters: { type: 'string', default: 'hub,member-1,member-2' },
    dir: { type: 'string', default: '.cache/local-system' },
    'without-agents': { type: 'boolean', default: false },
  },
});
const dir = path.resolve(values.dir);

async function main(command: string | undefined): Promise<number> {
  if (command === 'up') {
    const clusters = values.clusters.split(',').map((c) => c.trim()).filter(Boolean);
    if (!clusters.includes('hub')) {
      console.error(`--clusters must include "hub", got "${values.clusters}"`);
      return 2;
    }
    const withAgents = !values['without-agents'];
    const system = await startLocalSystem({ dir, clusters, withAgents, log: (line) => console.error(line) });
    console.log(
      JSON.stringify(
        {
          kubeconfigs: Object.fromEntries(system.plane.clusters.map((c) => [c.name, c.kubeconfig])),
          azure: system.azure,
          ...(system.agents ? { agents: system.agents } : {}),
          ...(system.endpointHostname ? { endpointHostname: system.endpointHostname } : {}),
          stop: `make local-down (or: pnpm exec tsx tools/local-system/src/cli.ts down --dir ${dir})`,
        },
        null,
        2,
      ),
    );
    for (const line of summaryLines(system, dir)) console.error(line);
    return 0;
  }
  if (command === 'down') {
    await stopLocalSystem(dir);
    console.error(`stopped the local system in ${dir}`);
    return 0;
  }
  console.error('usage: local-system <up|down> [--clusters hub,member-1,member-2] [--dir DIR]');
  return 2;
}

process.exitCode = await main(positionals[0]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  return 1;
});
