import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { fillCacheDir } from '@fleet-gateway/control-plane';

const run = promisify(execFile);

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A command built from a Go module pinned in a folder of this project (its go.mod's `tool` line). */
export interface GoTool {
  readonly name: string;
  readonly version: string;
  readonly moduleDir: string;
  readonly packagePath: string;
  readonly ldflags: string;
  /** Go build tags, e.g. to leave out parts the tests never run. */
  readonly tags?: string;
}

/** The cache key: the version and the module files that decide the build (go.mod, go.sum). */
async function moduleHash(tool: GoTool): Promise<string> {
  const hash = createHash('sha256').update(tool.version);
  for (const file of ['go.mod', 'go.sum']) hash.update('\0').update(await readFile(path.join(tool.moduleDir, file)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * Returns the path of the tool, built into .cache/<name>/<version>-<hash>/ on first use; a fresh machine needs only Go
 * and the Go module proxy.
 */
export async function ensureGoTool(tool: GoTool, log: (line: string) => void = () => {}): Promise<string> {
  const dir = path.join(REPO_ROOT, '.cache', tool.name, `${tool.version}-${await moduleHash(tool)}`);
  const binary = path.join(dir, tool.name);
  if (existsSync(binary)) return binary;
  log(`building ${tool.name} ${tool.version} into ${dir} (cold: minutes)`);
  const started = Date.now();
  await fillCacheDir(dir, async (staging) => {
    const tags = tool.tags ? ['-tags', tool.tags] : [];
    await run('go', ['build', '-trimpath', ...tags, '-ldflags', tool.ldflags, '-o', `${staging}/`, tool.packagePath], {
      cwd: tool.moduleDir,
      env: { ...process.env, CGO_ENABLED: '0' },
      maxBuffer: 64 * 1024 * 1024,
    });
  });
  log(`built ${tool.name} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return binary;
}
