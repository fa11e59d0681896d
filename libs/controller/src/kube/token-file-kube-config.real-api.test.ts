import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHubPlane, type HubPlane } from '../test-support/hub-plane.js';
import { KubeApiError } from './kube-api-error.js';
import { KubeClient } from './kube-client.js';
import { tokenFileKubeConfig } from './token-file-kube-config.js';

let hub: HubPlane;
let dir: string;
let tokenFile: string;
let client: KubeClient;

/** A token of the `reader` ServiceAccount, allowed to list ConfigMaps in `tokens`. */
async function issueToken(): Promise<string> {
  const request = await hub.client.create<{ status: { token: string } }>('/api/v1/namespaces/tokens/serviceaccounts/reader/token', {
    spec: { expirationSeconds: 3600 },
  });
  return request.status.token;
}

const listConfigMaps = () => client.get<{ items: unknown[] }>('/api/v1/namespaces/tokens/configmaps');

beforeAll(async () => {
  hub = await startHubPlane({ namespaces: ['tokens'] });
  await hub.client.create('/api/v1/namespaces/tokens/serviceaccounts', { metadata: { name: 'reader' } });
  await hub.client.create('/apis/rbac.authorization.k8s.io/v1/namespaces/tokens/roles', {
    metadata: { name: 'reader' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list'] }],
  });
  await hub.client.create('/apis/rbac.authorization.k8s.io/v1/namespaces/tokens/rolebindings', {
    metadata: { name: 'reader' },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' },
    subjects: [{ kind: 'ServiceAccount', name: 'reader', namespace: 'tokens' }],
  });
  dir = await mkdtemp(path.join(tmpdir(), 'token-file-'));
  tokenFile = path.join(dir, 'token');
  client = new KubeClient(tokenFileKubeConfig({ server: hub.hub.server, tokenFile, caPem: hub.hub.caCert }));
}, 120_000);

afterAll(async () => {
  await hub?.plane.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('tokenFileKubeConfig (real kube-apiserver)', () => {
  it('sends the token the file holds at each request, trailing newline and all, so a rewritten file takes effect at once', async () => {
    await writeFile(tokenFile, `${await issueToken()}\n`);
    expect((await listConfigMaps()).items).toEqual([]);
    await writeFile(tokenFile, 'not-a-token\n');
    const refused = await listConfigMaps().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(KubeApiError);
    expect((refused as KubeApiError).statusCode).toBe(401);
    await writeFile(tokenFile, await issueToken());
    expect((await listConfigMaps()).items).toEqual([]);
  });

  it('names the file, never its content, when it is missing or empty', async () => {
    await writeFile(tokenFile, ' \n');
    await expect(listConfigMaps()).rejects.toThrow(`the bearer token file ${tokenFile} is empty`);
    await rm(tokenFile);
    await expect(listConfigMaps()).rejects.toThrow(`the bearer token file ${tokenFile} cannot be read (ENOENT)`);
  });
});
