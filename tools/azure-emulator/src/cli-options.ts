import { parseArgs } from 'node:util';
import { OPERATION_TIMING_PROFILES, type OperationTimingsProfile } from './operation-timings.js';
import { DEPLOYMENT_PROFILES, type DeploymentProfile, type EmulatorOptions } from './options.js';

export const USAGE = `Usage: tsx tools/azure-emulator/src/cli.ts [options]

Runs the Azure emulator (ARM for Microsoft.Cdn AFD + Microsoft.Network, an AFD-like edge, an admin API) on
127.0.0.1 until interrupted, and prints its endpoints as one JSON line:
  {"armEndpoint","caCertificatePath","edgeUrl","adminUrl","identityEndpoint","identityHeader"}
(a process given IDENTITY_ENDPOINT=identityEndpoint and IDENTITY_HEADER=identityHeader gets its tokens from the
emulator through DefaultAzureCredential)

Options:
  --arm-port <n>              ARM HTTPS port (default: any free port)
  --edge-port <n>             edge HTTP port (default: any free port)
  --admin-port <n>            admin HTTP port (default: any free port)
  --identity-port <n>         managed-identity token endpoint HTTP port (default: any free port)
  --arm-authentication <m>    which Bearer tokens ARM takes: 'any-bearer' (default) or 'issued-tokens' (only the
                              emulator's own, unexpired, for ARM's audience)
  --ca-out <path>             where to write the CA certificate (default: a file in the temp directory)
  --lro-delay-ms <n>          duration of long-running operations (default 100)
  --operation-timings <p>     'fast' (default: every operation --lro-delay-ms) or 'azure' (Front Door's recorded
                              durations per resource kind and action, tens of seconds, with jitter; Retry-After 10 s)
  --operation-timing-seed <n> seed of the 'azure' timings' jitter (default 1)
  --page-size <n>             list items per page before nextLink (default 100)
  --deployment <profile>      deploymentStatus timing after provisioning succeeds: 'azure' (default: 2 min NotStarted,
                              10 min InProgress), 'watchable' (10 s, 30 s), 'fast' (50 ms, 200 ms) or 'stuck' (NotStarted for ever)
  --no-throttling             turn all throttling off (ARM's token buckets and Microsoft.Network's limit)
  --no-network-throttling     turn only Microsoft.Network's limit (10,000 reads / 1,000 writes per 5 min) off
  --edge-delays <ms,ms,...>   one simulated edge per value, each applying changes after that delay (default 0,150,300)
  --probe-interval-scale <x>  multiply health probe intervals (default 1)
  --help                      print this help
`;

export type CliCommand = { help: true } | { help: false; options: EmulatorOptions; caOut?: string };

/** Parses the command line; throws an Error naming the flag, the value and what is expected. */
export function parseCli(argv: string[]): CliCommand {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      'arm-port': { type: 'string' },
      'edge-port': { type: 'string' },
      'admin-port': { type: 'string' },
      'identity-port': { type: 'string' },
      'arm-authentication': { type: 'string' },
      'ca-out': { type: 'string' },
      'lro-delay-ms': { type: 'string' },
      'operation-timings': { type: 'string' },
      'operation-timing-seed': { type: 'string' },
      'page-size': { type: 'string' },
      deployment: { type: 'string' },
      'no-throttling': { type: 'boolean' },
      'no-network-throttling': { type: 'boolean' },
      'edge-delays': { type: 'string' },
      'probe-interval-scale': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return { help: true };
  const deployment = values.deployment ?? 'azure';
  if (!(deployment in DEPLOYMENT_PROFILES)) throw new Error(`--deployment must be one of ${Object.keys(DEPLOYMENT_PROFILES).join(', ')}; got '${deployment}'.`);
  const operationTimings = values['operation-timings'] ?? 'fast';
  if (!(OPERATION_TIMING_PROFILES as readonly string[]).includes(operationTimings)) {
    throw new Error(`--operation-timings must be one of ${OPERATION_TIMING_PROFILES.join(', ')}; got '${operationTimings}'.`);
  }
  const armAuthentication = values['arm-authentication'] ?? 'any-bearer';
  if (armAuthentication !== 'any-bearer' && armAuthentication !== 'issued-tokens') {
    throw new Error(`--arm-authentication must be one of any-bearer, issued-tokens; got '${armAuthentication}'.`);
  }
  const options: EmulatorOptions = {
    armPort: integer(values['arm-port'], '--arm-port', 0),
    edgePort: integer(values['edge-port'], '--edge-port', 0),
    adminPort: integer(values['admin-port'], '--admin-port', 0),
    identityPort: integer(values['identity-port'], '--identity-port', 0),
    armAuthentication,
    lroDelayMs: integer(values['lro-delay-ms'], '--lro-delay-ms', 100),
    operationTimings: operationTimings as OperationTimingsProfile,
    operationTimingSeed: integer(values['operation-timing-seed'], '--operation-timing-seed', 1),
    pageSize: integer(values['page-size'], '--page-size', 100, 1),
    deployment: deployment as DeploymentProfile,
    ...(values['no-throttling'] ? { throttling: false as const } : values['no-network-throttling'] ? { throttling: { network: false as const } } : {}),
    edge: {
      ...(values['edge-delays'] === undefined
        ? {}
        : { propagationDelaysMs: values['edge-delays'].split(',').map((delay) => integer(delay.trim(), '--edge-delays', 0)) }),
      probeIntervalScale: positive(values['probe-interval-scale'], '--probe-interval-scale', 1),
    },
  };
  return { help: false, options, ...(values['ca-out'] === undefined ? {} : { caOut: values['ca-out'] }) };
}

function integer(value: string | undefined, flag: string, fallback: number, minimum = 0): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < minimum) throw new Error(`${flag} must be an integer >= ${minimum}; got '${value}'.`);
  return parsed;
}

function positive(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed <= 0) throw new Error(`${flag} must be a number > 0; got '${value}'.`);
  return parsed;
}
