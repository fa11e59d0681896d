/**
 * Local control planes from the command line.
 *   build                         build (or reuse) kube-apiserver, etcd, kube-controller-manager, and fetch the
 *                                 Gateway API module whose CRDs the planes install (set-up time, not test time)
 *   start [--clusters hub,member-1,member-2] [--dir .cache/local-plane] [--gateway-api-version v1.6.3]
 *                                 start detached, install CRDs in every cluster (Gateway API: the release given,
 *                                 else GATEWAY_API_VERSION, else the newest), print kubeconfigs as JSON
 *   stop [--dir .cache/local-plane]
 *                                 stop exactly the processes recorded in <dir>/state.json and remove <dir>
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBinaries } from './binaries.js';
import { startControlPlane } from './control-plane.js';
import { checkedGatewayApiVersion, defaultGatewayApiVersion, GATEWAY_API_VERSIONS, gatewayApiModuleDir, NEWEST_GATEWAY_API_VERSION } from './crds.js';
import { stopDetached } from './detached.js';

const USAGE = `usage: control-plane <build|start|stop> [--clusters hub,member-1,member-2] [--dir DIR] [--gateway-api-version ${GATEWAY_API_VERSIONS.join('|')}]`;
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    clusters: { type: 'string', default: 'hub,member-1,member-2' },
    dir: { type: 'string', default: path.resolve('.cache/local-plane') },
    'gateway-api-version': { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});
const log = (line: string): void => console.error(line);
const dir = path.resolve(values.dir);
async function main(command: string | undefined): Promise<number> {
  switch (command) {
    case 'build': {
      const binaries = await ensureBinaries(log);
      // Every supported release, so that a suite run against any of them needs no download later.
      const gatewayApiModules = Object.fromEntries(await Promise.all(GATEWAY_API_VERSIONS.map(async (v) => [v, await gatewayApiModuleDir(v)] as const)));
      console.log(JSON.stringify({ ...binaries, gatewayApiModules }, null, 2));
      return 0;
    }
    case 'start': {
      if (existsSync(path.join(dir, 'state.json'))) {
        log(`a control plane is already recorded in ${dir}; run "stop --dir ${dir}" first`);
        return 1;
      }
      const clusters = values.clusters
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      const chosen = values['gateway-api-version'];
      const gatewayApiVersion = chosen ? checkedGatewayApiVersion(chosen, '--gateway-api-version') : defaultGatewayApiVersion(NEWEST_GATEWAY_API_VERSION);
      log(`installing Gateway API ${gatewayApiVersion} (standard channel)`);
      const plane = await startControlPlane({
        clusters,
        workDir: dir,
        detached: true,
        log,
        crds: Object.fromEntries(clusters.map((c) => [c, { gatewayApiVersion }])),
      });
      console.log(JSON.stringify(plane.state(), null, 2));
      return 0;
    }
    case 'stop': {
      if (!existsSync(path.join(dir, 'state.json'))) {
        log(`no control plane is recorded in ${dir}; nothing to stop`);
        return 0;
      }
      const stopped = await stopDetached(dir);
      log(`stopped ${stopped.length} processes and removed ${dir}`);
      return 0;
    }
    default:
      console.error(USAGE);
      return values.help ? 0 : 2;
  }
}

process.exitCode = await main(positionals[0]).catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  return 1;
});
