import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

/**
 * The Gateway API releases a hub may serve (standard channel, as AKS installs them): the oldest is the floor the
 * agents support, the newest the release the API types are generated from. Each is the `sigs.k8s.io/gateway-api`
 * module at that tag.
 */
export const GATEWAY_API_VERSIONS = ['v1.2.1', 'v1.3.0', 'v1.4.1', 'v1.5.1', 'v1.6.3'] as const;
export type GatewayApiVersion = (typeof GATEWAY_API_VERSIONS)[number];
export const OLDEST_GATEWAY_API_VERSION: GatewayApiVersion = GATEWAY_API_VERSIONS[0];
export const NEWEST_GATEWAY_API_VERSION: GatewayApiVersion = GATEWAY_API_VERSIONS[GATEWAY_API_VERSIONS.length - 1]!;

/**
 * The release a harness installs unless told otherwise: `GATEWAY_API_VERSION` from the environment (so one suite
 * runs against each release of the matrix), else `fallback`: the oldest for tests (the floor the agents support),
 * the newest for the local system and the end-to-end suites (so that the newer features can be tried).
 */
export function defaultGatewayApiVersion(fallback: GatewayApiVersion = OLDEST_GATEWAY_API_VERSION): GatewayApiVersion {
  const chosen = process.env.GATEWAY_API_VERSION;
  if (chosen === undefined || chosen === '') return fallback;
  return checkedGatewayApiVersion(chosen, 'GATEWAY_API_VERSION');
}

/**
 * `chosen` as a supported release (`oldest` and `newest` name the ends of the matrix, so that CI's second run needs
 * no edit when the matrix moves), or an error naming `source` (a flag or variable), the value and the choices.
 */
export function checkedGatewayApiVersion(chosen: string, source: string): GatewayApiVersion {
  if (chosen === 'oldest') return OLDEST_GATEWAY_API_VERSION;
  if (chosen === 'newest') return NEWEST_GATEWAY_API_VERSION;
  if (!(GATEWAY_API_VERSIONS as readonly string[]).includes(chosen)) {
    throw new Error(`${source}=${chosen} is not one of the supported releases: ${GATEWAY_API_VERSIONS.join(', ')}, oldest, newest`);
  }
  return chosen as GatewayApiVersion;
}

export const gatewayApiModule = (version: GatewayApiVersion): string => `sigs.k8s.io/gateway-api@${version}`;
export type GatewayApiChannel = 'standard' | 'experimental';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const FLEET_CRD_DIR = path.join(repoRoot, 'charts/fleet-networking-crds/files');

export interface CustomResourceDefinitionManifest {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata: { name: string; [key: string]: unknown };
  spec: {
    group: string;
    names: { kind: string; plural: string; [key: string]: unknown };
    versions: { name: string; served: boolean; storage: boolean; schema?: { openAPIV3Schema: Record<string, unknown> } }[];
    [key: string]: unknown;
  };
}

const gatewayApiDirs = new Map<GatewayApiVersion, Promise<string>>();

/**
 * Gateway API CRDs are read from the Go module cache (downloaded on first use through the Go module proxy)
 * so that the repository never carries a copy of them.
 */
export function gatewayApiModuleDir(version: GatewayApiVersion = defaultGatewayApiVersion()): Promise<string> {
  let dir = gatewayApiDirs.get(version);
  if (!dir) {
    const module = gatewayApiModule(version);
    dir = run('go', ['mod', 'download', '-json', module], { env: { ...process.env, GOFLAGS: '-mod=mod' } }).then(({ stdout }) => {
      const downloaded = (JSON.parse(stdout) as { Dir?: string }).Dir;
      if (!downloaded) throw new Error(`go mod download ${module} printed no Dir`);
      return downloaded;
    });
    gatewayApiDirs.set(version, dir);
  }
  return dir;
}

async function readCrdDir(dir: string): Promise<CustomResourceDefinitionManifest[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml') && !f.startsWith('kustomization')).sort();
  const crds: CustomResourceDefinitionManifest[] = [];
  for (const file of files) {
    for (const doc of parseAllDocuments(await readFile(path.join(dir, file), 'utf8'))) {
      const obj = doc.toJS() as CustomResourceDefinitionManifest | null;
      if (obj?.kind === 'CustomResourceDefinition') crds.push(obj);
    }
  }
  return crds;
}

export async function gatewayApiCrds(
  channel: GatewayApiChannel = 'standard',
  version: GatewayApiVersion = defaultGatewayApiVersion(),
): Promise<CustomResourceDefinitionManifest[]> {
  return readCrdDir(path.join(await gatewayApiModuleDir(version), 'config/crd', channel));
}

export function fleetCrds(): Promise<CustomResourceDefinitionManifest[]> {
  return readCrdDir(FLEET_CRD_DIR);
}
