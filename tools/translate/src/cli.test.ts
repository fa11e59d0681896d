import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = join(import.meta.dirname, '../../..');
const tsx = join(root, 'node_modules/.bin/tsx');
const cli = join(import.meta.dirname, 'cli.ts');
const fixture = join(root, 'libs/model/testdata/route-invalid-some-rules-dropped');

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(args: string[], stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(tsx, [cli, ...args], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

describe('translate CLI', () => {
  it('translates a libs/model testdata file into the golden verdicts, from a file and from stdin alike', async () => {
    const expected = parse(readFileSync(`${fixture}.out.yaml`, 'utf8')) as { verdicts: unknown };
    const fromFile = await run(['--input', `${fixture}.in.yaml`]);
    expect(fromFile.stderr).toBe('');
    expect(fromFile.code).toBe(0);
    const report = parse(fromFile.stdout) as { verdicts: unknown; plan: unknown };
    expect(report.verdicts).toEqual(expected.verdicts);
    expect(report.plan).not.toBeNull();
    const fromStdin = await run(['--input', '-'], readFileSync(`${fixture}.in.yaml`, 'utf8'));
    expect(fromStdin).toEqual(fromFile);
  });

  it('exits 2 with one line on stderr and no stack trace for bad input, flags or files', async () => {
    const results = await Promise.all([run([], 'gateway: [\n'), run(['--input', join(root, 'no-such-file.yaml')]), run(['--output', 'xml'])]);
    const [malformed, missing, badFlag] = results;
    expect(malformed?.stderr).toMatch(/^translate: input is not valid YAML: .+\n$/);
    expect(missing?.stderr).toMatch(/^translate: --input ".*no-such-file\.yaml" cannot be read \(ENOENT\); expected a readable HubInputs YAML file/);
    expect(badFlag?.stderr).toMatch(/^translate: --output has invalid value "xml"/);
    for (const result of results) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trimEnd()).not.toContain('\n');
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it('prints usage with the defaults', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--subscription-id GUID');
    expect(help.stdout).toContain('default: fleet-afd');
  });
});
