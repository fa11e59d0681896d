import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkArmEndpoint, checkBindAddress, checkSubscriptionId } from './checks.js';
import { commonAgentOptions, readCommonAgentFlags } from './common-agent-flags.js';

describe('flag checks', () => {
  it('accept good values and name flag, value and expected form for bad ones', () => {
    expect(checkSubscriptionId('sub', '11111111-2222-3333-4444-555555555555')).toBeUndefined();
    expect(checkSubscriptionId('sub', 'abc')).toBe('--sub has invalid value "abc"; expected a GUID such as 00000000-0000-0000-0000-000000000000');
    expect(checkArmEndpoint('arm', 'https://127.0.0.1:8443')).toBeUndefined();
    expect(checkArmEndpoint('arm', 'http://x')).toContain('expected an https URL');
    expect(checkArmEndpoint('arm', 'https://x/path')).toContain('"https://x/path"');
    expect(checkBindAddress('m', ':8080', ':1')).toBeUndefined();
    expect(checkBindAddress('m', '127.0.0.1:0', ':1')).toBeUndefined();
    expect(checkBindAddress('m', ':70000', ':1')).toBe('--m has invalid value ":70000"; expected [host]:port such as :1');
    expect(checkBindAddress('m', 'host', ':1')).toContain('"host"');
  });

  it('read the common flags with defaults and collect all errors', () => {
    const options = commonAgentOptions({ metrics: ':9000', health: ':9001' });
    const defaults = parseArgs({ args: [], options, strict: true }).values;
    const errors: string[] = [];
    expect(readCommonAgentFlags(defaults, errors)).toEqual({
      metricsBindAddress: ':9000',
      healthProbeBindAddress: ':9001',
      leaderElect: true,
      leaderElectionNamespace: 'fleet-system',
    });
    expect(errors).toEqual([]);
    const bad = parseArgs({ args: ['--no-leader-elect', '--azure-subscription-id', 'x', '--metrics-bind-address', 'y'], options, strict: true }).values;
    const flags = readCommonAgentFlags(bad, errors);
    expect(flags.leaderElect).toBe(false);
    expect(errors.map((e) => e.split(' ')[0])).toEqual(['--azure-subscription-id', '--metrics-bind-address']);
  });
});
