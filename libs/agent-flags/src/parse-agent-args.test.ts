import { describe, expect, it } from 'vitest';
import { parseAgentArgs } from './parse-agent-args.js';

describe('parseAgentArgs', () => {
  const options = { name: { type: 'string' }, on: { type: 'boolean', default: false } } as const;

  it('returns typed values', () => {
    expect(parseAgentArgs(['--name', 'x', '--on'], options)).toEqual({ ok: true, values: { name: 'x', on: true } });
  });

  it('returns, not throws, what parseArgs refuses', () => {
    const unknown = parseAgentArgs(['--nmae', 'x'], options);
    expect(unknown.ok).toBe(false);
    expect(unknown.ok ? [] : unknown.errors[0]).toContain("'--nmae'");
    expect(parseAgentArgs(['stray'], options).ok).toBe(false);
  });
});
