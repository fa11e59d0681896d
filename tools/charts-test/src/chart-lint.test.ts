import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { describe, expect, it } from 'vitest';
import { ensureHadolint } from './pypi-binaries.js';
import { HELM_GO_MODULE_DIR, HELM_VERSION, REPO_ROOT } from './helm-binary.js';
import { CHARTS, chartDir, helm, VALUES_DIR } from './helm.js';

const run = promisify(execFile);

describe('helm', () => {
  it(`is ${HELM_VERSION}, the version go/go.mod requires`, async () => {
    const goMod = await readFile(path.join(HELM_GO_MODULE_DIR, 'go.mod'), 'utf8');
    expect(goMod).toMatch(new RegExp(`^\\s*helm\\.sh/helm/v4 ${HELM_VERSION.replace(/\./g, '\\.')}\\b`, 'm'));
    const version = await helm(['version', '--template', '{{ .Version }}']);
    expect(version.stdout).toBe(HELM_VERSION);
  });
});

describe('helm lint --strict', () => {
  const valuesOf: Record<(typeof CHARTS)[number], string[][]> = {
    'hub-gateway': [[], ['hub-everything.yaml']],
    'member-discovery': [['member-minimal.yaml'], ['member-everything.yaml']],
  };
  for (const chart of CHARTS) {
    for (const values of valuesOf[chart]) {
      it(`${chart} with ${values.join(', ') || 'its defaults'} has no finding`, async () => {
        const result = await helm(['lint', '--strict', chartDir(chart), ...values.flatMap((v) => ['--values', path.join(VALUES_DIR, v)])]);
        expect(result.stdout + result.stderr).toContain('1 chart(s) linted, 0 chart(s) failed');
        expect(result.stdout).not.toMatch(/\[(WARNING|ERROR)\]/);
        expect(result.code).toBe(0);
      });
    }
  }

  it('finds a chart that breaks its own schema (the lint is not blind)', async () => {
    const result = await helm(['lint', '--strict', chartDir('hub-gateway'), '--set', 'logLevel=loud']);
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toMatch(/logLevel/);
  });
});

describe('hadolint', () => {
  for (const app of ['hub-gateway', 'member-discovery'] as const) {
    it(`finds nothing in apps/${app}/Dockerfile`, async () => {
      const hadolint = await ensureHadolint();
      const { stdout } = await run(hadolint, ['--no-color', '--failure-threshold', 'info', path.join(REPO_ROOT, `apps/${app}/Dockerfile`)]);
      expect(stdout).toBe('');
    });

    it(`apps/${app}/Dockerfile runs the bundle with its node flags as a non-root user on Node ${'26'} pinned to tools/toolchain.env`, async () => {
      const dockerfile = await readFile(path.join(REPO_ROOT, `apps/${app}/Dockerfile`), 'utf8');
      const toolchain = await readFile(path.join(REPO_ROOT, 'tools/toolchain.env'), 'utf8');
      const node = /^NODE_VERSION=(.+)$/m.exec(toolchain)?.[1];
      const pnpm = /^PNPM_VERSION=(.+)$/m.exec(toolchain)?.[1];
      expect(dockerfile).toContain(`ARG NODE_VERSION=${node}`);
      expect(dockerfile).toContain(`pnpm@${pnpm}`);
      expect(dockerfile).toContain(`nx bundle ${app}`);
      expect(dockerfile).toContain(`/src/dist/apps/${app}/main.mjs`);
      expect(dockerfile).toMatch(/^USER [1-9][0-9]*:[1-9][0-9]*$/m);
      const entrypoint = /^ENTRYPOINT (.+)$/m.exec(dockerfile)?.[1];
      expect(JSON.parse(entrypoint ?? 'null')).toEqual(['node', ...AGENT_NODE_FLAGS[app], '/app/main.mjs']);
    });
  }

  it('finds nothing in e2e/azure/echo/Dockerfile, which runs the bundled echo server as a non-root user on the agents’ Node', async () => {
    const file = path.join(REPO_ROOT, 'e2e/azure/echo/Dockerfile');
    const { stdout } = await run(await ensureHadolint(), ['--no-color', '--failure-threshold', 'info', file]);
    expect(stdout).toBe('');
    const dockerfile = await readFile(file, 'utf8');
    const agents = await readFile(path.join(REPO_ROOT, 'apps/member-discovery/Dockerfile'), 'utf8');
    const baseLines = (text: string) => text.split('\n').filter((line) => /^(ARG NODE_VERSION=|FROM |RUN npm install)/.test(line));
    expect(baseLines(dockerfile)).toEqual(baseLines(agents));
    expect(dockerfile).toContain('tsx e2e/src/bundle-echo-server.ts /src/dist/echo-server/main.mjs');
    expect(dockerfile).toMatch(/^USER [1-9][0-9]*:[1-9][0-9]*$/m);
    expect(JSON.parse(/^ENTRYPOINT (.+)$/m.exec(dockerfile)?.[1] ?? 'null')).toEqual(['node', '/app/main.mjs']);
  });

  it('finds an unpinned install (the linter is not blind)', async () => {
    const hadolint = await ensureHadolint();
    const bad = 'FROM node:26\nRUN npm install --global pnpm\n';
    const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
      const child = execFile(hadolint, ['--no-color', '-'], (error, stdout) => resolve({ code: error ? 1 : 0, stdout }));
      child.stdin?.end(bad);
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('DL3016');
  });
});
