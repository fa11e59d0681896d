import { memberResourceGroup } from './azure-side-info.js';
import type { LocalSystem } from './local-system.js';

/** The CLI as a person runs it from the repository root. */
export const CLI = 'pnpm exec tsx tools/local-system/src/cli.ts';

/**
 * What `up` prints last: where things are, then the lines to copy (a KUBECONFIG per cluster, the Azure endpoints,
 * the sample through the edge when it runs), then how to send a member Service's traffic to a backend of one's own.
 */
export function summaryLines(system: LocalSystem, dir: string): string[] {
  const { azure, plane, endpointHostname } = system;
  const members = plane.clusters.filter((c) => c.name !== 'hub').map((c) => c.name);
  const width = Math.max(...plane.clusters.map((c) => c.kubeconfig.length));
  const lines = [
    '',
    `The local system is up (state and logs in ${dir}). Stop everything with: make local-down`,
    '',
    `Azure emulator (subscription ${azure.subscriptionId}; AFD resource group ${azure.afdResourceGroup}${members.length > 0 ? `; node resource groups ${members.map(memberResourceGroup).join(', ')}` : ''}):`,
    `  ARM endpoint:  ${azure.armEndpoint}   (CA certificate: ${azure.caCertificatePath})`,
    `  edge (AFD):    ${azure.edgeUrl}`,
    `  admin API:     ${azure.adminUrl}`,
    '  for an agent (its managed identity, --azure-credential=managed-identity, the default):',
    `  export IDENTITY_ENDPOINT=${azure.identityEndpoint} IDENTITY_HEADER=${azure.identityHeader}`,
    '',
    'Kubernetes, one line per cluster:',
    ...plane.clusters.map((c) => `  export KUBECONFIG=${c.kubeconfig.padEnd(width)}  # ${c.name} (${c.server})`),
  ];
  if (endpointHostname) {
    lines.push(
      '',
      `Gateway shop/web is Programmed; its Front Door endpoint is ${endpointHostname}. Through the edge (each request answered by one member):`,
      `  curl -s -H 'Host: ${endpointHostname}' ${azure.edgeUrl}/`,
      `  KUBECONFIG=${plane.clusters.find((c) => c.name === 'hub')?.kubeconfig ?? ''} kubectl get gateway -n shop web -o yaml`,
    );
  }
  if (members.length > 0) {
    lines.push(
      '',
      "A member Service of type LoadBalancer gets its address from the cloud-provider stand-in; to send the edge's",
      'traffic for that address and port to a backend of your own (after the Service has its address):',
      `  ${CLI} backend --dir ${dir} --cluster ${members[0]} --service <namespace>/<name> --port <service port> --target 127.0.0.1:8080`,
    );
  }
  return lines;
}
