import { readFile } from 'node:fs/promises';
import { applyManifests, type Manifest } from '@fleet-gateway/local-system';
import { isNotFound, type Condition, type KubeClient } from '@fleet-gateway/controller';
import { eventually } from '@fleet-gateway/controller/test-support';
import { parseAllDocuments } from 'yaml';
import { echoDeploymentsFor } from './echo-deployments.js';
import type { E2eMember, SystemUnderTest } from './system-under-test.js';

/** The manifests of a scenario's YAML file (a path relative to the scenario's folder, via import.meta.url). */
export async function manifestsOf(file: URL): Promise<Manifest[]> {
  return parseAllDocuments(await readFile(file, 'utf8')).map((doc) => doc.toJS() as Manifest);
}

export async function apply(client: KubeClient, file: URL): Promise<void> {
  await applyManifests(client, await manifestsOf(file));
}

/**
 * Applies a scenario's manifests on a member. In Azure mode also an echo Deployment behind each of their Services (in
 * local mode the cloud-provider stand-in answers for every Service, whatever it selects).
 */
export async function applyOnMember(system: SystemUnderTest, member: E2eMember, file: URL): Promise<void> {
  const manifests = await manifestsOf(file);
  await applyManifests(system.members[member], manifests);
  if (system.mode !== 'azure') return;
  if (!system.echoImage) throw new Error(`the Azure run recorded no echoImage (${system.dir}/outputs.env): its set-up did not finish`);
  await applyManifests(system.members[member], echoDeploymentsFor(manifests, member, system.echoImage));
}

/** GET that answers undefined for 404. */
export async function read<T>(client: KubeClient, path: string): Promise<T | undefined> {
  return client.get<T>(path).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
}

/** controller test support's `eventually` with the end-to-end suites' longer default wait (a whole system converging). */
export const until = <T>(readValue: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> => eventually(readValue, done, timeoutMs);

export const conditionOf = (object: { status?: { conditions?: Condition[] } } | undefined, type: string): Condition | undefined =>
  object?.status?.conditions?.find((c) => c.type === type);
