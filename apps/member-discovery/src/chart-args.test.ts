import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import { afterAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseMemberFlags } from './flags.js';

interface ChartContainer {
  readonly args: string[];
  readonly env: Record<string, string>;
}

/**
 * The container of the member chart's golden renderings (tools/charts-test proves them equal to `helm template`'s
 * output), for this agent's own flag parser: what the chart passes must be what the agent accepts.
 */
async function chartContainer(golden: string): Promise<ChartContainer> {
  const text = await readFile(path.resolve(import.meta.dirname, '../../../tools/charts-test/golden', golden), 'utf8');
  const deployment = parseAllDocuments(text)
    .map(
      (document) =>
        document.toJS() as { kind?: string; spec?: { template: { spec: { containers: { args?: string[]; env?: { name: string; value?: string }[] }[] } } } },
    )
    .find((manifest) => manifest?.kind === 'Deployment');
  const container = deployment?.spec?.template.spec.containers[0];
  return {
    args: container?.args ?? [],
    env: Object.fromEntries((container?.env ?? []).flatMap(({ name, value }) => (value === undefined ? [] : [[name, value]]))),
  };
}

// What the workload identity webhook sets in a pod labelled azure.workload.identity/use (the everything values enable it).
const WORKLOAD_IDENTITY_ENVIRONMENT = {
  AZURE_CLIENT_ID: '00000000-0000-4000-8000-0000000000c3',
  AZURE_TENANT_ID: '00000000-0000-4000-8000-0000000000b2',
  AZURE_FEDERATED_TOKEN_FILE: '/var/run/secrets/azure/tokens/azure-identity-token',
};

const scratch = await mkdtemp(path.join(tmpdir(), 'member-chart-args-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe("the member chart's container args, read by the agent's flag parser", () => {
  it('accepts the args with a hub kubeconfig Secret', async () => {
    const { args } = await chartContainer('member-discovery.default.yaml');
    expect(parseMemberFlags(args)).toMatchObject({
      ok: true,
      value: { memberClusterName: 'member-1', leaderElectionNamespace: 'fleet-system', metricsSecure: true },
    });
  });

  it("accepts the everything-on args and environment: the hub reached as fleet-networking does, discovery with the webhook's workload identity", async () => {
    const { args, env } = await chartContainer('member-discovery.everything.yaml');
    // What exists only in the pod: the mounted hub token at CONFIG_PATH and a real hub CA (the values carry a placeholder).
    const tokenFile = path.join(scratch, 'token');
    await writeFile(tokenFile, 'a-hub-token');
    const ca = await generate([{ name: 'commonName', value: 'hub-ca' }], {
      keyType: 'ec',
      curve: 'P-256',
      algorithm: 'sha256',
      extensions: [{ name: 'basicConstraints', cA: true, critical: true }],
    });
    expect(env).toMatchObject({
      HUB_SERVER_URL: 'https://hub.example.com:443',
      CONFIG_PATH: expect.any(String),
      HUB_CERTIFICATE_AUTHORITY: expect.any(String),
    });
    const environment = {
      ...env,
      CONFIG_PATH: tokenFile,
      HUB_CERTIFICATE_AUTHORITY: Buffer.from(ca.cert).toString('base64'),
      ...WORKLOAD_IDENTITY_ENVIRONMENT,
    };
    expect(parseMemberFlags(args, environment)).toMatchObject({
      ok: true,
      value: {
        memberClusterName: 'member-1',
        enablePrivateLinkOriginDiscovery: true,
        approvePrivateLinkConnections: true,
        nodeResourceGroup: 'MC_fleet_member-1_eastus2',
        region: 'eastus2',
        leaderElectionNamespace: 'fleet-leases',
        leaseDurationMs: 30_000,
        logLevel: 'debug',
        metricsSecure: true,
        metricsCertDir: '/etc/fleet-gateway/metrics-certs',
        azureCredential: { kind: 'workload-identity', tokenFile: WORKLOAD_IDENTITY_ENVIRONMENT.AZURE_FEDERATED_TOKEN_FILE },
        privateLinkApprovalHubs: [
          'subscription/00000000-0000-4000-8000-0000000000a1/cluster/hub-eastus2',
          'subscription/00000000-0000-4000-8000-0000000000a1/cluster/hub-westus3',
        ],
      },
    });
  });
});
