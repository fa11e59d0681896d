/** What an agent's flag parser answers: the flags, a request for help, or every problem found. */
export type FlagsResult<T> = { ok: true; help: false; value: T } | { ok: true; help: true } | { ok: false; errors: string[] };

/**
 * The process's answer to its flags: the flags to run with; or, after printing the usage, exit 0; or, after
 * printing every problem on its own line, exit 2.
 */
export function flagsOrExit<T>(result: FlagsResult<T>, usage: string): T {
  if (!result.ok) {
    process.stderr.write(`${result.errors.join('\n')}\n`);
    process.exit(2);
  }
  if (result.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  return result.value;
}
