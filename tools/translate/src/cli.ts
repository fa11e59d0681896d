import { readFile } from 'node:fs/promises';
import { text } from 'node:stream/consumers';
import { parseCliArgs, USAGE } from './cli-args.js';
import { translate } from './translate.js';

/** The I/O edge: flags, the input file or stdin, stdout/stderr and the exit code; translate does the rest. */
async function readInput(input: string): Promise<string> {
  return input === '-' ? text(process.stdin) : readFile(input, 'utf8');
}

async function main(argv: string[]): Promise<number> {
  const args = parseCliArgs(argv);
  if (!args.ok) {
    process.stderr.write(`translate: ${args.error} (see --help)\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  let inputsYaml: string;
  try {
    inputsYaml = await readInput(args.input);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    process.stderr.write(`translate: --input "${args.input}" cannot be read (${code}); expected a readable HubInputs YAML file or - for stdin\n`);
    return 2;
  }
  const result = translate(inputsYaml, args.options);
  if (result.exitCode === 0) process.stdout.write(result.output);
  else process.stderr.write(`translate: ${result.output}\n`);
  return result.exitCode;
}

process.exitCode = await main(process.argv.slice(2));
