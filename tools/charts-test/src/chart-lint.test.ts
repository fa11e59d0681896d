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

/** distroless's Node images keep node at /nodejs/bin/node (their own entrypoint), not on PATH. */
const DISTROLESS_NODE = '/nodejs/bin/node';

async function toolchainPins() {
  const toolchain = await readFile(path.join(REPO_ROOT, 'tools/toolchain.env'), 'utf8');
  const pin = (key: string) => new RegExp(`^${key}=(.+)$`, 'm').exec(toolchain)?.[1];
  const node = pin('NODE_VERSION');
  return { node, nodeMajor: node?.split('.')[0], pnpm: pin('PNPM_VERSION'), pnpmIntegrity: pin('PNPM_INTEGRITY') };
}

/** The package spec and integrity a script or Dockerfile hands tools/install-registry-package.sh for pnpm. */
function pnpmInstall(text: string) {
  const match = /tools\/install-registry-package\.sh "(@pnpm\/[^"]+)" "([^"]+)"/.exec(text);
  return match ? { spec: match[1], integrity: match[2] } : undefined;
}

/** The runtime stage's base and user: the lines from the last FROM on that say what the container runs on and as. */
function runtimeLines(dockerfile: string): string[] {
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  return runtime.split('\n').filter((line) => /^(FROM|USER) /.test(line));
}

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

    it(`apps/${app}/Dockerfile runs the bundle with its node flags as distroless's non-root user on Node ${'26'}, built with tools/toolchain.env's pins`, async () => {
      const dockerfile = await readFile(path.join(REPO_ROOT, `apps/${app}/Dockerfile`), 'utf8');
      const { node, nodeMajor } = await toolchainPins();
      expect(dockerfile).toContain(`ARG NODE_VERSION=${node}`);
      expect(dockerfile).toMatch(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS build$/m);
      expect(pnpmInstall(dockerfile)).toEqual(pnpmInstall(await readFile(path.join(REPO_ROOT, 'tools/bootstrap.sh'), 'utf8')));
      expect(dockerfile).toContain(`nx bundle ${app}`);
      expect(dockerfile).toContain(`/src/dist/apps/${app}/main.mjs`);
      expect(runtimeLines(dockerfile)).toEqual([`FROM gcr.io/distroless/nodejs${nodeMajor}-debian13:nonroot`, 'USER 65532:65532']);
      const entrypoint = /^ENTRYPOINT (.+)$/m.exec(dockerfile)?.[1];
      expect(JSON.parse(entrypoint ?? 'null')).toEqual([DISTROLESS_NODE, ...AGENT_NODE_FLAGS[app], '/app/main.mjs']);
    });
  }

  it('the pnpm install reads its version and integrity from tools/toolchain.env, through the script that checks the tarball (as tools/bootstrap.sh does)', async () => {
    const dockerfile = await readFile(path.join(REPO_ROOT, 'apps/hub-gateway/Dockerfile'), 'utf8');
    const install = pnpmInstall(dockerfile);
    expect(install).toEqual({ spec: '@pnpm/exe.linux-x64@$PNPM_VERSION', integrity: '$PNPM_INTEGRITY' });
    expect(dockerfile).toContain('COPY tools/toolchain.env tools/install-registry-package.sh tools/');
    expect(dockerfile).toMatch(/^RUN source tools\/toolchain\.env \\\n && tools\/install-registry-package\.sh /m);
    const { pnpm, pnpmIntegrity } = await toolchainPins();
    expect(pnpm).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pnpmIntegrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
  });

  it('finds nothing in e2e/azure/echo/Dockerfile, which runs the bundled echo server as a non-root user on the agents’ Node', async () => {
    const file = path.join(REPO_ROOT, 'e2e/azure/echo/Dockerfile');
    const { stdout } = await run(await ensureHadolint(), ['--no-color', '--failure-threshold', 'info', file]);
    expect(stdout).toBe('');
    const dockerfile = await readFile(file, 'utf8');
    const agents = await readFile(path.join(REPO_ROOT, 'apps/member-discovery/Dockerfile'), 'utf8');
    const baseLines = (text: string) =>
      text.split('\n').filter((line) => /^(ARG NODE_VERSION=|FROM |SHELL |COPY tools\/|RUN source |ENV PATH=|USER | && tools\/)/.test(line));
    expect(baseLines(dockerfile)).toEqual(baseLines(agents));
    expect(dockerfile).toContain('tsx e2e/src/bundle-echo-server.ts /src/dist/echo-server/main.mjs');
    expect(JSON.parse(/^ENTRYPOINT (.+)$/m.exec(dockerfile)?.[1] ?? 'null')).toEqual([DISTROLESS_NODE, '/app/main.mjs']);
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
