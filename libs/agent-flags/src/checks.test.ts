import { describe, expect, it } from 'vitest';
import { parseBindAddress } from './bind-address.js';
import { checkArmEndpoint, checkBindAddress, checkResourceGroup, checkSubscriptionId } from './checks.js';
import { commonAgentOptions, readCommonAgentFlags } from './common-agent-flags.js';
import { parseAgentArgs } from './parse-agent-args.js';

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
    expect(parseBindAddress(':8082')).toEqual({ host: '0.0.0.0', port: 8082 });
    expect(parseBindAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBindAddress('[::1]:80')).toBeUndefined();
    expect(checkResourceGroup('rg', 'rg-fleet.(1)_x')).toBeUndefined();
    expect(checkResourceGroup('rg', 'rg.')).toBe(
      '--rg has invalid value "rg."; expected an Azure resource group name (1-90 of letters, digits, _ - . ( ), not ending in .)',
    );
    expect(checkResourceGroup('rg', 'a'.repeat(91))).toContain('expected an Azure resource group name');
  });

  it('read the common flags with defaults and collect all errors', () => {
    const options = commonAgentOptions({ metrics: ':9000', health: ':9001' });
    const valuesOf = (args: string[]) => {
      const parsed = parseAgentArgs(args, options);
      if (!parsed.ok) throw new Error(parsed.errors.join('; '));
      return parsed.values;
    };
    const defaults = valuesOf([]);
    const errors: string[] = [];
    expect(readCommonAgentFlags(defaults, errors)).toEqual({
      metricsBindAddress: ':9000',
      metricsSecure: true,
      healthProbeBindAddress: ':9001',
      leaderElect: true,
      leaderElectionNamespace: 'fleet-system',
      leaseDurationMs: 15_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2_000,
      reconcileStallTimeoutMs: 1_800_000,
      logLevel: 'info',
    });
    expect(errors).toEqual([]);
    const bad = valuesOf(['--no-leader-elect', '--azure-subscription-id', 'x', '--metrics-bind-address', 'y', '--log-level', 'verbose']);
    const flags = readCommonAgentFlags(bad, errors);
    expect(flags.leaderElect).toBe(false);
    expect(errors.map((e) => e.split(' ')[0])).toEqual(['--azure-subscription-id', '--metrics-bind-address', '--log-level']);
    expect(errors[2]).toBe('--log-level has invalid value "verbose"; expected one of error, warn, info, debug');
    expect(readCommonAgentFlags(valuesOf(['--leader-elect=false', '--log-level', 'debug']), [])).toMatchObject({ leaderElect: false, logLevel: 'debug' });
  });

  it('take a cert dir only with secure metrics, and plain HTTP only when asked', () => {
    const options = commonAgentOptions({ metrics: ':9000', health: ':9001' });
    const read = (args: string[]) => {
      const parsed = parseAgentArgs(args, options);
      if (!parsed.ok) throw new Error(parsed.errors.join('; '));
      const errors: string[] = [];
      return { flags: readCommonAgentFlags(parsed.values, errors), errors };
    };
    expect(read(['--metrics-cert-dir', '/certs'])).toMatchObject({ flags: { metricsSecure: true, metricsCertDir: '/certs' }, errors: [] });
    expect(read(['--metrics-secure=false'])).toMatchObject({ flags: { metricsSecure: false }, errors: [] });
    expect(read(['--metrics-secure=false', '--metrics-cert-dir', '/certs']).errors).toEqual([
      '--metrics-cert-dir has value "/certs" but --metrics-secure is false; expected --metrics-secure with it (its certificate serves only the secure /metrics)',
    ]);
    expect(read(['--metrics-cert-dir=']).errors).toEqual(['--metrics-cert-dir has invalid value ""; expected a directory holding tls.crt and tls.key']);
  });
});

describe('leader election timings', () => {
  const options = commonAgentOptions({ metrics: ':1', health: ':2' });
  const read = (args: string[]) => {
    const errors: string[] = [];
    const parsed = parseAgentArgs(args, options);
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const flags = readCommonAgentFlags(parsed.values, errors);
    return { flags, errors };
  };

  it('take Go-style durations', () => {
    const { flags, errors } = read(['--leader-elect-lease-duration', '1m30s', '--leader-elect-renew-deadline', '20s', '--leader-elect-retry-period', '500ms']);
    expect(errors).toEqual([]);
    expect([flags.leaseDurationMs, flags.renewDeadlineMs, flags.retryPeriodMs]).toEqual([90_000, 20_000, 500]);
  });

  it('name a malformed duration and refuse timings out of order', () => {
    expect(read(['--leader-elect-retry-period', '2 seconds']).errors).toEqual([
      '--leader-elect-retry-period has invalid value "2 seconds"; expected a positive duration such as 15s, 500ms or 1m30s',
    ]);
    expect(read(['--leader-elect-renew-deadline', '20s']).errors).toEqual([
      '--leader-elect-lease-duration (15s), --leader-elect-renew-deadline (20s) and --leader-elect-retry-period (2s) must decrease in that order',
    ]);
    expect(read(['--leader-elect-lease-duration', '0s']).errors[0]).toContain('"0s"');
  });
});
