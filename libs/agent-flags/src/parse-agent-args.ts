import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { FlagSpecs } from './flag-spec.js';

export type Values<S extends FlagSpecs> = {
  [K in keyof S]: S[K]['type'] extends 'boolean'
    ? S[K] extends { default: boolean }
      ? boolean
      : boolean | undefined
    : S[K] extends { default: string }
      ? string
      : string | undefined;
};

export type ParsedAgentArgs<S extends FlagSpecs> = { ok: true; values: Values<S> } | { ok: false; errors: string[] };

/**
 * node:util parseArgs in strict mode over flag specs, with its error (an unknown flag, a missing value) returned, not
 * thrown. Booleans take `--flag`, `--no-flag` and, as Kubernetes agents' charts pass them, `--flag=true|false`.
 */
export function parseAgentArgs<const S extends FlagSpecs>(argv: string[], specs: S): ParsedAgentArgs<S> {
  const errors: string[] = [];
  const args = argv.map((arg) => {
    const match = /^--([^=]+)=(.*)$/.exec(arg);
    if (!match || specs[match[1] ?? '']?.type !== 'boolean') return arg;
    const [, name, value] = match;
    if (value === 'true') return `--${name}`;
    if (value === 'false') return `--no-${name}`;
    errors.push(`--${name} has invalid value "${value}"; expected true or false`);
    return `--${name}`;
  });
  const options = Object.fromEntries(
    Object.entries(specs).map(([name, { type, default: fallback, short }]) => [
      name,
      { type, ...(fallback === undefined ? {} : { default: fallback }), ...(short === undefined ? {} : { short }) },
    ]),
  ) as NonNullable<ParseArgsConfig['options']>;
  try {
    const { values } = parseArgs({ args, options, strict: true, allowPositionals: false, allowNegative: true });
    if (errors.length > 0) return { ok: false, errors };
    return { ok: true, values: values as Values<S> };
  } catch (error) {
    return { ok: false, errors: [...errors, (error as Error).message] };
  }
}
