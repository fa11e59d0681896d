import { describe, expect, it } from 'vitest';
import type { AzureSideInfo } from './azure-side-info.js';
import type { LocalSystem } from './local-system.js';
import { summaryLines } from './summary.js';

const azure: AzureSideInfo = {
  pid: 30,
  armEndpoint: 'https://127.0.0.1:4001',
  caCertificatePath: '/d/azure-emulator-ca.pem',
  edgeUrl: 'http://127.0.0.1:4002',
  adminUrl: 'http://127.0.0.1:4003',
  backendsUrl: 'http://127.0.0.1:4005',
  identityEndpoint: 'http://127.0.0.1:4004/msi/token',
  identityHeader: 'SECRET',
  subscriptionId: 'sub',
  afdResourceGroup: 'rg-fleet-afd',
  members: ['member-1', 'member-2'],
};
const system: LocalSystem = {
  dir: '/d',
  memberHubKubeconfigs: {},
  plane: {
    workDir: '/d/plane',
    etcd: { endpoint: 'http://127.0.0.1:1', pid: 20 },
    clusters: ['hub', 'member-1', 'member-2'].map((name, i) => ({
      name,
      server: `https://127.0.0.1:${5000 + i}`,
      kubeconfig: `/d/plane/${name}/kubeconfig`,
      pids: [21 + i],
    })),
  },
  azure,
};

describe('renderSummary', () => {
  const lines = summaryLines(system, '/d');

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
    expect(lines).toContain('The local system is up (state and logs in /d). Stop everything with: make local-down');
  });

  it('shows the sample through the edge when it serves', () => {
    const serving = summaryLines({ ...system, endpointHostname: 'fd-web.z01.azurefd.net' }, '/d');
    expect(serving).toContain("  curl -s -H 'Host: fd-web.z01.azurefd.net' http://127.0.0.1:4002/");
    expect(lines.join('\n')).not.toContain('curl');
  });

  it('leaves out the backend command when there is no member cluster', () => {
    const hubOnly = summaryLines(
      { ...system, plane: { ...system.plane, clusters: system.plane.clusters.slice(0, 1) }, azure: { ...azure, members: [] } },
      '/d',
    );
    expect(hubOnly.join('\n')).not.toContain(' backend ');
    expect(hubOnly.join('\n')).not.toContain('node resource groups');
  });
});
