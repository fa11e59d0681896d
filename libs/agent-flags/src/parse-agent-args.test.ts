import { describe, expect, it } from 'vitest';
import { renderFlagHelp } from './flag-spec.js';
import { parseAgentArgs } from './parse-agent-args.js';

describe('parseAgentArgs', () => {
  const specs = {
    name: { type: 'string', valueName: 'NAME', description: 'a name' },
    on: { type: 'boolean', default: false, description: 'switch on' },
    gate: { type: 'boolean', default: true, description: 'a gate, on by default' },
  } as const;

  it('returns typed values', () => {
    expect(parseAgentArgs(['--name', 'x', '--on'], specs)).toEqual({ ok: true, values: { name: 'x', on: true, gate: true } });
  });

  it('takes booleans as --flag, --no-flag and --flag=true|false, as charts pass them', () => {
    expect(parseAgentArgs(['--on=true', '--gate=false'], specs)).toEqual({ ok: true, values: { on: true, gate: false } });
    expect(parseAgentArgs(['--on=false', '--no-gate'], specs)).toEqual({ ok: true, values: { on: false, gate: false } });
    expect(parseAgentArgs(['--on=yes'], specs)).toEqual({ ok: false, errors: ['--on has invalid value "yes"; expected true or false'] });
  });

  it('returns, not throws, what parseArgs refuses', () => {
    const unknown = parseAgentArgs(['--nmae', 'x'], specs);
    expect(unknown.ok).toBe(false);
    expect(unknown.ok ? [] : unknown.errors[0]).toContain("'--nmae'");
    expect(parseAgentArgs(['stray'], specs).ok).toBe(false);
    expect(parseAgentArgs(['--no-name'], specs).ok).toBe(false);
  });

  it('renders help naming every flag with its value form and default', () => {
    const help = renderFlagHelp('Usage: tool [flags]', specs);
    expect(help.split('\n')).toEqual([
      'Usage: tool [flags]',
      '',
      'Flags (a boolean also takes --no-<flag>):',
      '  --name NAME          a name',
      '  --on[=true|false]    switch on (default: false)',
      '  --gate[=true|false]  a gate, on by default (default: true)',
      '',
    ]);
  });
});
