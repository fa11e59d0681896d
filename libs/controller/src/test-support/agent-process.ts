import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/** Bundles apps/<app> as it ships (tools/scripts/bundle-agent.ts: one ESM file for plain node) to `outfile`. */
export async function bundleAgent(app: string, outfile: string): Promise<string> {
  const tsx = createRequire(import.meta.url).resolve('tsx/cli');
  await promisify(execFile)(process.execPath, [tsx, path.join(root, 'tools/scripts/bundle-agent.ts'), app, outfile], { cwd: root });
  return outfile;
}

/** One JSON log line of the agent (winston's JSON format). */
export type LogLine = Record<string, unknown> & { level?: string; message?: string };

/**
 * Test support: an agent process (an agent bundle under plain node after `nodeFlags`, the agent's AGENT_NODE_FLAGS
 * as its image's ENTRYPOINT gives them, or others to compare), its stdout kept as text and parsed as JSON log
 * lines, its stderr kept as text, and its exit. `stop()` sends SIGTERM and resolves with the exit code.
 */
export class AgentProcess {
  readonly lines: LogLine[] = [];
  stdout = '';
  stderr = '';
  readonly exited: Promise<number | null>;
  readonly pid: number;
  private readonly child: ChildProcessWithoutNullStreams;
  private pending = '';

  constructor(bundle: string, args: readonly string[], env: NodeJS.ProcessEnv, nodeFlags: readonly string[]) {
    this.child = spawn(process.execPath, [...nodeFlags, bundle, ...args], { env, stdio: 'pipe' });
    if (this.child.pid === undefined) throw new Error(`${bundle} did not start`);
    this.pid = this.child.pid;
    this.child.stdout.on('data', (chunk: Buffer) => this.take(chunk.toString()));
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
  }

  /** The first log line matching, waiting for it (and failing if the process exits first). */
  async line(matches: (line: LogLine) => boolean, timeoutMs = 30_000): Promise<LogLine> {
    const deadline = Date.now() + timeoutMs;
    let exited = false;
    void this.exited.then(() => (exited = true));
    for (;;) {
      const found = this.lines.find(matches);
      if (found) return found;
      if (exited || Date.now() > deadline) {
        throw new Error(
          `no matching log line (${exited ? 'the agent exited' : 'timed out'}); stderr: ${this.stderr}\nlog: ${this.lines.map((l) => JSON.stringify(l)).join('\n')}`,
        );
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Sends a signal (SIGKILL: a crash the agent cannot react to); `exited` resolves with null for a signal. */
  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  stop(): Promise<number | null> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGTERM');
    return this.exited;
  }

  private take(text: string): void {
    this.stdout += text;
    const parts = (this.pending + text).split('\n');
    this.pending = parts.pop() ?? '';
    for (const part of parts) if (part.trim() !== '') this.lines.push(parseLine(part));
  }
}

/** A line that is not JSON (nothing the agent should print) is kept as its text, at level `raw`. */
function parseLine(text: string): LogLine {
  try {
    return JSON.parse(text) as LogLine;
  } catch {
    return { level: 'raw', message: text };
  }
}
