import { execFile } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ensureHelm, REPO_ROOT } from './helm-binary.js';

export const CHARTS = ['hub-gateway', 'member-discovery'] as const;
export type ChartName = (typeof CHARTS)[number];
export const chartDir = (chart: string): string => path.join(REPO_ROOT, 'charts', chart);
export const VALUES_DIR = path.join(REPO_ROOT, 'tools/charts-test/values');

export interface HelmResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A rendered manifest, as much of it as the assertions read. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

/** Runs helm with its home, cache, config and data folders under .cache/helm/home (never the user's). */
export async function helm(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<HelmResult> {
  const binary = await ensureHelm();
  const home = path.join(REPO_ROOT, '.cache/helm/home');
  return new Promise((resolve) => {
    execFile(
      binary,
      [...args],
      {
        cwd: REPO_ROOT,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          PATH: process.env.PATH,
          // client-go keeps its discovery cache in $HOME/.kube; unset, that would be the repository.
          HOME: home,
          HELM_CACHE_HOME: `${home}/cache`,
          HELM_CONFIG_HOME: `${home}/config`,
          HELM_DATA_HOME: `${home}/data`,
          ...env,
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export async function helmOk(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
  const result = await helm(args, env);
  if (result.code !== 0) throw new Error(`helm ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** Installs (or upgrades) a chart's release of its own name into fleet-system of a cluster, as a user would. */
export function installChart(chart: ChartName, kubeconfigPath: string, valuesFiles: readonly string[] = []): Promise<string> {
  const values = valuesFiles.flatMap((file) => ['--values', path.join(VALUES_DIR, file)]);
  return helmOk(['upgrade', '--install', chart, chartDir(chart), ...values, '--kubeconfig', kubeconfigPath, '--namespace', 'fleet-system']);
}

/** `helm template` of a chart with the given values files (from tools/charts-test/values) and --set pairs. */
export function templateArgs(chart: ChartName, valuesFiles: readonly string[] = [], set: readonly string[] = []): string[] {
  return [
    'template',
    chart,
    chartDir(chart),
    ...valuesFiles.flatMap((file) => ['--values', path.join(VALUES_DIR, file)]),
    ...set.flatMap((pair) => ['--set', pair]),
  ];
}

export async function renderText(chart: ChartName, valuesFiles: readonly string[] = [], set: readonly string[] = []): Promise<string> {
  return helmOk(templateArgs(chart, valuesFiles, set));
}

export function parseManifests(text: string): Manifest[] {
  return parseAllDocuments(text)
    .map((doc) => doc.toJS() as Manifest | null)
    .filter((doc): doc is Manifest => doc !== null);
}

export async function render(chart: ChartName, valuesFiles: readonly string[] = [], set: readonly string[] = []): Promise<Manifest[]> {
  return parseManifests(await renderText(chart, valuesFiles, set));
}

/** Packs charts/fleet-networking-crds into each chart's charts/ (file:// dependency), so they render its CRDs as they are now. */
export async function buildChartDependencies(): Promise<void> {
  for (const chart of CHARTS) await helmOk(['dependency', 'update', '--skip-refresh', chartDir(chart)]);
}
