import { describe, expect, it } from 'vitest';
import type { AzureSideInfo } from './azure-side-info.js';
import type { LocalSystemRecord } from './state-record.js';
import { renderSummary } from './summary.js';

const azure: AzureSideInfo = {
  pid: 30,
  armEndpoint: 'https://127.0.0.1:4001',
  caCertificatePath: '/d/azure-emulator-ca.pem',
  edgeUrl: 'http://127.0.0.1:4002',
  adminUrl: 'http://127.0.0.1:4003',
  identityEndpoint: 'http://127.0.0.1:4004/msi/token',
  identityHeader: 'SECRET',
  subscriptionId: 'sub',
  afdResourceGroup: 'rg-fleet-afd',
  members: ['member-1', 'member-2'],
};
const record: LocalSystemRecord = {
  status: 'running',
  owner: 10,
  startedAt: '2026-12-01T12:00:00.000Z',
  clusters: ['hub', 'member-1', 'member-2'],
  plane: {
    workDir: '/d/plane',
    etcd: { endpoint: 'http://127.0.0.1:1', pid: 20 },
    clusters: ['hub', 'member-1', 'member-2'].map((name, i) => ({ name, server: `https://127.0.0.1:${5000 + i}`, kubeconfig: `/d/plane/${name}/kubeconfig`, pids: [21 + i] })),
  },
  processes: [{ name: 'azure-side', pid: 30, pgid: 30, logFile: '/d/azure-side.log', marker: 'azure-side.ts' }],
  azure,
};

describe('renderSummary', () => {
  const lines = renderSummary('/d', record);

  it('gives one KUBECONFIG line per cluster, aligned, naming the cluster and its server', () => {
    expect(lines.filter((l) => l.includes('export KUBECONFIG='))).toEqual([
      '  export KUBECONFIG=/d/plane/hub/kubeconfig       # hub (https://127.0.0.1:5000)',
      '  export KUBECONFIG=/d/plane/member-1/kubeconfig  # member-1 (https://127.0.0.1:5001)',
      '  export KUBECONFIG=/d/plane/member-2/kubeconfig  # member-2 (https://127.0.0.1:5002)',
    ]);
  });

  it('names every emulator endpoint, the resource groups and the managed-identity variables', () => {
    expect(lines).toContain('Azure emulator (subscription sub; AFD resource group rg-fleet-afd; node resource groups mc-member-1, mc-member-2):');
    expect(lines).toContain('  ARM endpoint:  https://127.0.0.1:4001   (CA certificate: /d/azure-emulator-ca.pem)');
    expect(lines).toContain('  edge (AFD):    http://127.0.0.1:4002');
    expect(lines).toContain('  admin API:     http://127.0.0.1:4003');
    expect(lines).toContain('  export IDENTITY_ENDPOINT=http://127.0.0.1:4004/msi/token IDENTITY_HEADER=SECRET');
  });

  it('ends with how to point a member Service at a backend of your own, and says how to stop', () => {
    expect(lines.at(-1)).toBe(
      '  pnpm exec tsx tools/local-system/src/cli.ts backend --dir /d --cluster member-1 --service <namespace>/<name> --port <service port> --target 127.0.0.1:8080',
    );
    expect(lines).toContain('The local system is running (state and logs in /d). Stop it with: make local-down');
  });

  it('leaves out the backend command when there is no member cluster', () => {
    const hubOnly = renderSummary('/d', { ...record, plane: { ...record.plane!, clusters: record.plane!.clusters.slice(0, 1) }, azure: { ...azure, members: [] } });
    expect(hubOnly.join('\n')).not.toContain(' backend ');
    expect(hubOnly.join('\n')).not.toContain('node resource groups');
  });
});
