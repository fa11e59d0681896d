import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { renderKubeconfig } from '@fleet-gateway/control-plane';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AZURE_ARM_ENDPOINT, azureSystemInfoOf, E2E_CLUSTERS, systemUnderTest } from './system-under-test.js';

const SUB = '11111111-2222-3333-4444-555555555555';
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-sut-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('the system under test in Azure mode', () => {
  it('is the recorded clusters and subscription; the emulator’s endpoints throw, naming the feature to declare', async () => {
    const outputs: Record<string, string> = { afdResourceGroup: 'fleet-e2e', echoImage: 'fgwe2eabc123.azurecr.io/echo-backend:e2e-abc123' };
    for (const cluster of E2E_CLUSTERS) {
      const file = path.join(dir, `${cluster}.kubeconfig`);
      await writeFile(file, renderKubeconfig({ cluster, server: `https://${cluster}.example:443`, caCert: 'ca', user: 'admin', credentials: { token: 't' } }));
      outputs[`kubeconfig.${cluster}`] = file;
    }
    const info = azureSystemInfoOf(SUB, { dir, runId: 'abc123', outputs }, true);
    expect(info).toMatchObject({
      mode: 'azure',
      frontDoor: true,
      agents: [],
      echoImage: 'fgwe2eabc123.azurecr.io/echo-backend:e2e-abc123',
      cloud: { subscriptionId: SUB, afdResourceGroup: 'fleet-e2e', members: ['member-1', 'member-2'] },
    });
    expect(info.memberHubKubeconfigs).toEqual({ 'member-1': path.join(dir, 'member-1-hub.kubeconfig'), 'member-2': path.join(dir, 'member-2-hub.kubeconfig') });
    // What global set-up hands to the test files survives serialization.
    const system = systemUnderTest(JSON.parse(JSON.stringify(info)) as typeof info);
    expect([system.azure.subscriptionId, system.azure.afdResourceGroup, system.azure.armEndpoint]).toEqual([SUB, 'fleet-e2e', AZURE_ARM_ENDPOINT]);
    expect(() => system.azure.adminUrl).toThrow(
      "system.azure.adminUrl is the emulator's: this scenario needs the 'emulator' feature (not run: needs E2E_MODE=local)",
    );
    expect(() => system.azure.edgeUrl).toThrow(/edgeUrl is the emulator's/);
  });

  it('refuses a run whose set-up did not finish, naming the missing output', async () => {
    expect(() => azureSystemInfoOf(SUB, { dir, runId: 'abc123', outputs: { afdResourceGroup: 'fleet-e2e' } }, false)).toThrow(
      `the Azure run abc123 recorded no kubeconfig.hub (${dir}/outputs.env): its set-up did not finish; run make e2e-cleanup, then make e2e-setup`,
    );
  });
});
