import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { RawResponse } from '../raw-arm-client.js';

/** What the CLI prints on its first line. */
export interface PrintedEndpoints {
  armEndpoint: string;
  caCertificatePath: string;
  edgeUrl: string;
  adminUrl: string;
}

export interface EmulatorProcess extends PrintedEndpoints {
  caCertificate: string;
  stop(): Promise<void>;
}

/** The emulator in its own process (the CLI), as it runs beside the agents, so the benchmark's client does not share its event loop. */
export async function startEmulatorProcess(args: readonly string[]): Promise<EmulatorProcess> {
  const cli = fileURLToPath(new URL('../cli.ts', import.meta.url));
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  const child: ChildProcess = spawn(process.execPath, [tsx, cli, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.split('\n')[0] as string);
    });
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
  const printed = JSON.parse(line) as PrintedEndpoints;
  return {
    ...printed,
    caCertificate: await readFile(printed.caCertificatePath, 'utf8'),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

export async function expectStatus(response: Promise<RawResponse>, status: number): Promise<RawResponse> {
  const answer = await response;
  if (answer.status !== status) throw new Error(`setup request answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer;
}
