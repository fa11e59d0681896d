import { checkArmEndpoint, checkBindAddress, checkSubscriptionId } from './checks.js';
import { parseDuration } from './duration.js';

/** Flags both agents take: serving addresses, leader election, and where ARM is. */
export interface CommonAgentFlags {
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  leaderElect: boolean;
  leaderElectionNamespace: string;
  /** How long a lease is valid, how long the leader keeps trying to renew, and how often candidates retry. */
  leaseDurationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
  azureSubscriptionId?: string;
  /** ARM endpoint override (the local emulator); default: Azure public cloud. */
  armEndpoint?: string;
}

/** node:util parseArgs option specs, with each agent's upstream default ports. */
export function commonAgentOptions(ports: { metrics: string; health: string }) {
  return {
    'metrics-bind-address': { type: 'string', default: ports.metrics },
    'health-probe-bind-address': { type: 'string', default: ports.health },
    'leader-elect': { type: 'boolean', default: true },
    'no-leader-elect': { type: 'boolean', default: false },
    'leader-election-namespace': { type: 'string', default: 'fleet-system' },
    'leader-elect-lease-duration': { type: 'string', default: '15s' },
    'leader-elect-renew-deadline': { type: 'string', default: '10s' },
    'leader-elect-retry-period': { type: 'string', default: '2s' },
    'azure-subscription-id': { type: 'string' },
    'arm-endpoint': { type: 'string' },
  } as const;
}

type ParsedCommon = {
  'metrics-bind-address': string;
  'health-probe-bind-address': string;
  'leader-elect': boolean;
  'no-leader-elect': boolean;
  'leader-election-namespace': string;
  'leader-elect-lease-duration': string;
  'leader-elect-renew-deadline': string;
  'leader-elect-retry-period': string;
  'azure-subscription-id'?: string | undefined;
  'arm-endpoint'?: string | undefined;
};

/** Validates the common flags, appending every problem to errors, and returns their typed values. */
export function readCommonAgentFlags(values: ParsedCommon, errors: string[]): CommonAgentFlags {
  const subscription = values['azure-subscription-id'];
  const armEndpoint = values['arm-endpoint'];
  const problems = [
    checkSubscriptionId('azure-subscription-id', subscription),
    checkArmEndpoint('arm-endpoint', armEndpoint),
    checkBindAddress('metrics-bind-address', values['metrics-bind-address'], ':8080'),
    checkBindAddress('health-probe-bind-address', values['health-probe-bind-address'], ':8081'),
  ];
  errors.push(...problems.filter((p): p is string => p !== undefined));
  const timings = readLeaseTimings(values, errors);
  return {
    ...timings,
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    leaderElect: values['leader-elect'] && !values['no-leader-elect'],
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
