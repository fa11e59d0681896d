import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RESOURCES } from '@fleet-gateway/api-types';
import { edgeRequest } from '@fleet-gateway/azure-emulator';
import { objectPath, type Condition, type KubeClient, type ResourceType } from '@fleet-gateway/controller';
import { parseAllDocuments } from 'yaml';
import type { EchoAnswer } from './echo-backend.js';

const SAMPLE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../sample');

/** The sample's names: Gateway, HTTPRoute, Service, ServiceExport and ServiceImport are all `shop/web`. */
export const SAMPLE = { namespace: 'shop', name: 'web' } as const;

const CORE: Record<string, ResourceType> = {
  Namespace: { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false },
  Service: { group: '', version: 'v1', kind: 'Service', plural: 'services', namespaced: true },
  // Azure mode's echo backends (e2e): real clusters have no stand-in answering for their Services.
  Deployment: { group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true },
};
const KINDS: Record<string, ResourceType> = { ...CORE, ...RESOURCES };

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
}

/** The manifests of `sample/<file>.yaml`, in order. */
export async function sampleManifests(file: 'hub' | 'member'): Promise<Manifest[]> {
  const text = await readFile(path.join(SAMPLE_DIR, `${file}.yaml`), 'utf8');
  return parseAllDocuments(text).map((doc) => doc.toJS() as Manifest);
}

/** Applies manifests with server-side apply under the field manager `local-system-sample` (re-applying is a no-op). */
export async function applyManifests(client: KubeClient, manifests: readonly Manifest[]): Promise<void> {
  for (const manifest of manifests) {
    const resource = KINDS[manifest.kind];
    if (!resource) throw new Error(`the sample has a ${manifest.kind}, which local-system cannot apply`);
    await client.patch(objectPath(resource, manifest.metadata.name, manifest.metadata.namespace), manifest, 'apply', {
      fieldManager: 'local-system-sample',
      force: true,
    });
  }
}

export interface GatewayView {
  readonly conditions: readonly Condition[];
  readonly hostname?: string;
}

/** The sample Gateway's conditions and its address (the AFD endpoint host name) as the hub shows them. */
export async function readSampleGateway(hub: KubeClient): Promise<GatewayView> {
  const gateway = await hub.get<{ status?: { conditions?: Condition[]; addresses?: { type?: string; value: string }[] } }>(
    objectPath(RESOURCES.Gateway, SAMPLE.name, SAMPLE.namespace),
  );
  const hostname = gateway.status?.addresses?.find((a) => a.type === 'Hostname')?.value;
  return { conditions: gateway.status?.conditions ?? [], ...(hostname ? { hostname } : {}) };
}

/** One line for a condition: `Programmed=False (Pending): 7 of 8 …`. */
export const describeCondition = (c: Condition): string => `${c.type}=${c.status} (${c.reason}): ${c.message}`;

/**
 * Waits until the sample Gateway is Programmed, printing each change of its conditions as it happens (what it waits
 * for, never a silent pause), and returns its endpoint host name.
 */
export async function waitForProgrammed(hub: KubeClient, progress: (line: string) => void, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const view = await readSampleGateway(hub).catch(() => ({ conditions: [] }) as GatewayView);
    const shown = view.conditions
      .filter((c) => c.type === 'Accepted' || c.type === 'Programmed')
      .map(describeCondition)
      .join('; ');
    if (shown !== last && shown !== '') progress(`Gateway ${SAMPLE.namespace}/${SAMPLE.name}: ${shown}`);
    last = shown;
    const programmed = view.conditions.find((c) => c.type === 'Programmed')?.status === 'True';
    if (programmed && view.hostname) return view.hostname;
    if (Date.now() > deadline) throw new Error(`the sample Gateway was not Programmed within ${Math.round(timeoutMs / 1000)} s; last: ${shown || 'no status'}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** A request through the edge to the Gateway's endpoint, as `curl -H 'Host: <hostname>' <edgeUrl>/` sends it. */
export async function requestThroughEdge(edgeUrl: string, hostname: string, requestPath = '/'): Promise<{ status: number; answer?: EchoAnswer }> {
  const { status, body } = await edgeRequest(edgeUrl, hostname, requestPath);
  try {
    return { status, answer: JSON.parse(body) as EchoAnswer };
  } catch {
    return { status };
  }
}

/** Waits until the edge has answered from every member, printing which members answered so far. */
export async function waitForEveryMember(
  edgeUrl: string,
  hostname: string,
  members: readonly string[],
  progress: (line: string) => void,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const seen = new Set<string>();
  let statuses = new Map<number, number>();
  let lastReport = 0;
  const report = (): void => {
    progress(
      `edge ${hostname}: answered by ${[...seen].sort().join(', ') || 'no member yet'} (statuses ${[...statuses].map(([s, n]) => `${s || 'refused'}×${n}`).join(', ')})`,
    );
    statuses = new Map();
    lastReport = Date.now();
  };
  for (;;) {
    const { status, answer } = await requestThroughEdge(edgeUrl, hostname).catch(() => ({ status: 0, answer: undefined }));
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (status === 200 && answer?.cluster) seen.add(answer.cluster);
    // The last line names every member: the one that completed the set is reported before returning.
    if (members.every((m) => seen.has(m))) return report();
    if (Date.now() - lastReport > 3_000) report();
    if (Date.now() > deadline)
      throw new Error(
        `the edge did not answer from every member within ${Math.round(timeoutMs / 1000)} s: seen ${[...seen].join(', ') || 'none'} of ${members.join(', ')}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
