/**
 * Called by e2e/azure/setup.sh: member-hub-access-cli <hub kubeconfig> <member> <output file>. Creates on the hub,
 * with the same code as the local system, the member agent's namespace fleet-member-<member>, its ServiceAccount and
 * Role (the rules of charts/hub-gateway/files/member-agent-hub-rules.yaml, as the hub chart's) and a bound token, and writes the member's hub kubeconfig.
 */
import { writeFile } from 'node:fs/promises';
import { createMemberHubCredentials } from '@fleet-gateway/control-plane';
import { KubeConfig } from '@kubernetes/client-node';

const [hubKubeconfig, member, output] = process.argv.slice(2);
if (!hubKubeconfig || !member || !output) {
  console.error('usage: member-hub-access-cli <hub kubeconfig> <member> <output file>');
  process.exit(2);
}
const hub = new KubeConfig();
hub.loadFromFile(hubKubeconfig);
const cluster = hub.getCurrentCluster();
if (!cluster?.caData) {
  console.error(`${hubKubeconfig}: its current cluster has no server or certificate-authority-data`);
  process.exit(1);
}
const credentials = await createMemberHubCredentials(hub, cluster.server, Buffer.from(cluster.caData, 'base64').toString('utf8'), member);
await writeFile(output, credentials.kubeconfig, { mode: 0o600 });
console.error(`wrote ${output}: ${member}'s hub identity (${credentials.namespace}/${credentials.serviceAccount})`);
