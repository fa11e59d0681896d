import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleEntry } from './bundle-agent.js';

const run = promisify(execFile);
let dir: string;
let bundle: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'bundle-agent-'));
  bundle = await bundleEntry(
    path.join(import.meta.dirname, 'fixtures/bundle-probe.fixture.ts'),
    path.join(dir, 'probe.mjs'),
    path.join(import.meta.dirname, 'tsconfig.json'),
  );
}, 120_000);
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('bundleEntry', () => {
  it('serves Node built-ins without the ESM facade: the same module objects, and Node’s internal undici never loaded', async () => {
    const { stdout } = await run(process.execPath, [bundle], { env: { PATH: process.env.PATH ?? '' } });
    expect(JSON.parse(stdout)).toEqual({
      defaultIsTheBuiltin: true,
      namedIsTheBuiltins: true,
      server: 'https://127.0.0.1:6443',
      authorization: 'Bearer token-value',
      internalUndiciLoaded: false,
      statusRead: true,
    });
  });

  it('leaves out the client-node APIs and models nothing imports, and keeps KubeConfig', async () => {
    const text = await readFile(bundle, 'utf8');
    expect(text).toMatch(/\bKubeConfig ?= ?class\b/);
    for (const unused of ['V1PodSpec', 'Watch']) expect(text).not.toMatch(new RegExp(`\\b${unused} ?= ?class\\b`));
  });

  it('fails the build, naming the export, when code imports a built-in’s lazy accessor by name', async () => {
    const entry = path.join(dir, 'accessor.ts');
    await writeFile(entry, "import { WebSocket } from 'node:http';\nconsole.log(WebSocket);\n");
    await expect(bundleEntry(entry, path.join(dir, 'accessor.mjs'), path.join(import.meta.dirname, 'tsconfig.json'))).rejects.toThrow(/WebSocket/);
  });
});
