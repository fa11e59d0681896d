import { describe, expect, it } from 'vitest';
import { DEFAULT_HUB_NAME, DEFAULT_RESOURCE_GROUP, DEFAULT_SUBSCRIPTION_ID, parseCliArgs, USAGE } from './cli-args.js';

describe('parseCliArgs', () => {
  it('defaults to stdin, YAML, verdicts and plan, and the documented scope', () => {
    expect(parseCliArgs([])).toEqual({
      ok: true,
      help: false,
      input: '-',
      options: {
        output: 'yaml',
        show: ['verdicts', 'plan'],
        scope: { subscriptionId: DEFAULT_SUBSCRIPTION_ID, resourceGroup: DEFAULT_RESOURCE_GROUP },
        hubName: DEFAULT_HUB_NAME,
      },
    });
    expect(USAGE).toContain(`(default: ${DEFAULT_SUBSCRIPTION_ID})`);
    expect(USAGE).toContain(`(default: ${DEFAULT_RESOURCE_GROUP})`);
  });

  it('reads every flag', () => {
    const args = parseCliArgs([
      '--input',
      'a.yaml',
      '--output',
      'json',
      '--show',
      'model, plan',
      '--subscription-id',
      '11111111-2222-3333-4444-555555555555',
      '--resource-group',
      'rg.1',
    ]);
    expect(args).toEqual({
      ok: true,
      help: false,
      input: 'a.yaml',
      options: {
        output: 'json',
        show: ['model', 'plan'],
        scope: { subscriptionId: '11111111-2222-3333-4444-555555555555', resourceGroup: 'rg.1' },
        hubName: DEFAULT_HUB_NAME,
      },
    });
    expect(parseCliArgs(['-h'])).toEqual({ ok: true, help: true });
  });

  it('names every bad flag, its value and what is expected, in one line', () => {
    const args = parseCliArgs(['--output', 'xml', '--show', 'plan,status', '--subscription-id', 'sub-1', '--resource-group', 'rg.']);
    expect(args.ok).toBe(false);
    const error = args.ok ? '' : args.error;
    expect(error).toContain('--output has invalid value "xml"; expected one of yaml, json');
    expect(error).toContain('--show has invalid value "plan,status"; expected a comma-separated list of model, verdicts, plan');
    expect(error).toContain('--subscription-id has invalid value "sub-1"; expected a GUID');
    expect(error).toContain('--resource-group has invalid value "rg."');
    expect(error).not.toContain('\n');
    expect(parseCliArgs(['--verbose'])).toMatchObject({ ok: false, error: expect.stringContaining("'--verbose'") });
  });
});
