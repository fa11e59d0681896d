import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

export const GATEWAY_API_MODULE = 'sigs.k8s.io/gateway-api@v1.2.1';
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

let gatewayApiDir: Promise<string> | undefined;

/**
 * Gateway API CRDs are read from the Go module cache (downloaded on first use through the Go module proxy)
 * so that the repository never carries a copy of them.
 */
export function gatewayApiModuleDir(): Promise<string> {
  gatewayApiDir ??= run('go', ['mod', 'download', '-json', GATEWAY_API_MODULE], { env: { ...process.env, GOFLAGS: '-mod=mod' } }).then(({ stdout }) => {
    const dir = (JSON.parse(stdout) as { Dir?: string }).Dir;
    if (!dir) throw new Error(`go mod download ${GATEWAY_API_MODULE} printed no Dir`);
    return dir;
  });
  return gatewayApiDir;
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

export async function gatewayApiCrds(channel: GatewayApiChannel = 'standard'): Promise<CustomResourceDefinitionManifest[]> {
  return readCrdDir(path.join(await gatewayApiModuleDir(), 'config/crd', channel));
}

export function fleetCrds(): Promise<CustomResourceDefinitionManifest[]> {
  return readCrdDir(FLEET_CRD_DIR);
}
