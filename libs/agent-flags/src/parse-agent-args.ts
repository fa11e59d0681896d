import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** node:util parseArgs in strict mode, with its error (an unknown flag, a missing value) returned, not thrown. */
export function parseAgentArgs<const O extends Options>(argv: string[], options: O) {
  const config = { args: argv, options, strict: true, allowPositionals: false } as const;
  try {
    return { ok: true as const, values: parseArgs(config).values };
  } catch (error) {
    return { ok: false as const, errors: [(error as Error).message] };
  }
}
