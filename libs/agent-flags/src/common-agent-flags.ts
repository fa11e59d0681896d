import { checkArmEndpoint, checkBindAddress, checkSubscriptionId } from './checks.js';
import { parseDuration } from './duration.js';
import type { FlagSpecs } from './flag-spec.js';
import type { Values } from './parse-agent-args.js';

/** Flags both agents take: serving addresses, leader election, and where ARM is. */
export interface CommonAgentFlags {
  metricsBindAddress: string;
  /** /metrics over HTTPS, for callers the API server authenticates and allows (TokenReview + SubjectAccessReview). */
  metricsSecure: boolean;
  /** tls.crt and tls.key for the secure /metrics; without it a self-signed certificate is made at start. */
  metricsCertDir?: string;
  healthProbeBindAddress: string;
  leaderElect: boolean;
  leaderElectionNamespace: string;
  /** How long a lease is valid, how long the leader keeps trying to renew, and how often candidates retry. */
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  /** /healthz fails when work waits this long with no reconcile finished meanwhile. */
  reconcileStallTimeoutMs: number;
  azureSubscriptionId?: string;
  /** ARM endpoint override (the local emulator); default: Azure public cloud. */
  armEndpoint?: string;
  logLevel: LogLevel;
}

export const LOG_LEVELS = ['error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** The flags both agents take, with each agent's upstream default ports. */
export function commonAgentOptions(ports: { metrics: string; health: string }) {
  return {
    'metrics-bind-address': { type: 'string', default: ports.metrics, valueName: 'ADDRESS', description: 'where /metrics is served' },
    'metrics-secure': {
      type: 'boolean',
      default: true,
      description:
        '/metrics over HTTPS, for bearer tokens the API server authenticates and allows to get /metrics (TokenReview, SubjectAccessReview); false: plain HTTP, open to anyone who reaches the address',
    },
    'metrics-cert-dir': {
      type: 'string',
      valueName: 'DIR',
      description: 'tls.crt and tls.key for the secure /metrics, read again when they change (default: a self-signed certificate made at start)',
    },
    'health-probe-bind-address': { type: 'string', default: ports.health, valueName: 'ADDRESS', description: 'where /healthz and /readyz are served' },
    'leader-elect': { type: 'boolean', default: true, description: 'run only while holding the leader Lease' },
    'leader-election-namespace': { type: 'string', default: 'fleet-system', valueName: 'NAMESPACE', description: 'namespace of the leader Lease' },
    'leader-elect-lease-duration': { type: 'string', default: '15s', valueName: 'DURATION', description: 'how long a lease is valid' },
    'leader-elect-renew-deadline': { type: 'string', default: '10s', valueName: 'DURATION', description: 'how long the leader keeps trying to renew' },
    'leader-elect-retry-period': { type: 'string', default: '2s', valueName: 'DURATION', description: 'how often candidates retry' },
    'reconcile-stall-timeout': {
      type: 'string',
      default: '30m',
      valueName: 'DURATION',
      description: '/healthz fails when requests wait or a reconcile runs this long with no reconcile finished meanwhile',
    },
    'azure-subscription-id': { type: 'string', valueName: 'GUID', description: 'the Azure subscription' },
    'arm-endpoint': {
      type: 'string',
      valueName: 'URL',
      description: 'the ARM endpoint, e.g. a sovereign cloud or the local emulator (default: Azure public cloud)',
    },
    'log-level': { type: 'string', default: 'info', valueName: 'LEVEL', description: `log level, one of ${LOG_LEVELS.join(', ')}` },
  } as const satisfies FlagSpecs;
}

type ParsedCommon = Values<ReturnType<typeof commonAgentOptions>>;

/** Validates the common flags, appending every problem to errors, and returns their typed values. */
export function readCommonAgentFlags(values: ParsedCommon, errors: string[]): CommonAgentFlags {
  const subscription = values['azure-subscription-id'];
  const armEndpoint = values['arm-endpoint'];
  const problems = [
    checkSubscriptionId('azure-subscription-id', subscription),
    checkArmEndpoint('arm-endpoint', armEndpoint),
    checkBindAddress('metrics-bind-address', values['metrics-bind-address'], ':8080'),
    checkBindAddress('health-probe-bind-address', values['health-probe-bind-address'], ':8081'),
    values['metrics-cert-dir'] !== undefined && !values['metrics-secure']
      ? `--metrics-cert-dir has value "${values['metrics-cert-dir']}" but --metrics-secure is false; expected --metrics-secure with it (its certificate serves only the secure /metrics)`
      : undefined,
    values['metrics-cert-dir'] === '' ? '--metrics-cert-dir has invalid value ""; expected a directory holding tls.crt and tls.key' : undefined,
    (LOG_LEVELS as readonly string[]).includes(values['log-level'])
      ? undefined
      : `--log-level has invalid value "${values['log-level']}"; expected one of ${LOG_LEVELS.join(', ')}`,
  ];
  errors.push(...problems.filter((p): p is string => p !== undefined));
  const timings = readLeaseTimings(values, errors);
  const stall = parseDuration(values['reconcile-stall-timeout']);
  if (stall === undefined || stall <= 0) {
    errors.push(`--reconcile-stall-timeout has invalid value "${values['reconcile-stall-timeout']}"; expected a positive duration such as 30m or 90s`);
  }
  return {
    ...timings,
    reconcileStallTimeoutMs: stall ?? 0,
    metricsBindAddress: values['metrics-bind-address'],
    metricsSecure: values['metrics-secure'],
    ...(values['metrics-cert-dir'] ? { metricsCertDir: values['metrics-cert-dir'] } : {}),
    healthProbeBindAddress: values['health-probe-bind-address'],
    leaderElect: values['leader-elect'],
    logLevel: values['log-level'] as LogLevel,
    leaderElectionNamespace: values['leader-election-namespace'],
    ...(subscription !== undefined ? { azureSubscriptionId: subscription } : {}),
    ...(armEndpoint !== undefined ? { armEndpoint } : {}),
  };
}

const LEASE_FLAGS = ['leader-elect-lease-duration', 'leader-elect-renew-deadline', 'leader-elect-retry-period'] as const;

/** The three lease timings, each a positive duration, with lease duration > renew deadline > retry period. */
function readLeaseTimings(values: ParsedCommon, errors: string[]): Pick<CommonAgentFlags, 'leaseDurationMs' | 'renewDeadlineMs' | 'retryPeriodMs'> {
  const [lease, renew, retry] = LEASE_FLAGS.map((flag) => {
    const ms = parseDuration(values[flag]);
    if (ms === undefined || ms <= 0) {
      errors.push(`--${flag} has invalid value "${values[flag]}"; expected a positive duration such as 15s, 500ms or 1m30s`);
    }
    return ms ?? 0;
  }) as [number, number, number];
  if (lease > 0 && renew > 0 && retry > 0 && !(lease > renew && renew > retry)) {
    errors.push(
      `--leader-elect-lease-duration (${values['leader-elect-lease-duration']}), --leader-elect-renew-deadline (${values['leader-elect-renew-deadline']}) and --leader-elect-retry-period (${values['leader-elect-retry-period']}) must decrease in that order`,
    );
  }
  return { leaseDurationMs: lease, renewDeadlineMs: renew, retryPeriodMs: retry };
}
