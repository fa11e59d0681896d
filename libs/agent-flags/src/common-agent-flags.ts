import { checkArmEndpoint, checkBindAddress, checkSubscriptionId } from './checks.js';

/** Flags both agents take: serving addresses, leader election, and where ARM is. */
export interface CommonAgentFlags {
  metricsBindAddress: string;
  healthProbeBindAddress: string;
  leaderElect: boolean;
  leaderElectionNamespace: string;
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
  return {
    metricsBindAddress: values['metrics-bind-address'],
    healthProbeBindAddress: values['health-probe-bind-address'],
    leaderElect: values['leader-elect'] && !values['no-leader-elect'],
    leaderElectionNamespace: values['leader-election-namespace'],
    ...(subscription !== undefined ? { azureSubscriptionId: subscription } : {}),
    ...(armEndpoint !== undefined ? { armEndpoint } : {}),
  };
}
