import type { LocalSystem } from './local-system.js';

/** The lines `up` ends with: what to copy to reach each cluster, the sample through the edge, and how to stop. */
export function summaryLines(system: LocalSystem, dir: string): string[] {
  const lines = ['', 'The local system is up. To reach it:'];
  for (const cluster of system.plane.clusters) lines.push(`  export KUBECONFIG=${cluster.kubeconfig}   # ${cluster.name}`);
  if (system.endpointHostname) {
    lines.push(
      '',
      `Gateway shop/web is Programmed; its Front Door endpoint is ${system.endpointHostname}. Through the edge (each request answered by one member):`,
      `  curl -s -H 'Host: ${system.endpointHostname}' ${system.azure.edgeUrl}/`,
      `  KUBECONFIG=${system.plane.clusters.find((c) => c.name === 'hub')?.kubeconfig ?? ''} kubectl get gateway -n shop web -o yaml`,
    );
  }
  lines.push(
    '',
    `Azure emulator: ARM ${system.azure.armEndpoint} (CA ${system.azure.caCertificatePath}), admin ${system.azure.adminUrl}`,
    `Logs and state: ${dir}`,
    'Stop everything: make local-down',
  );
  return lines;
}
