import { renderKubeconfig, type Cluster } from '@fleet-gateway/control-plane';
import type { KubeClient } from '@fleet-gateway/controller';

/**
 * A kubeconfig with a TokenRequest token of a chart's ServiceAccount: the identity its pod would have, so what the
 * agent may do with it is exactly what the chart's roles grant.
 */
export async function serviceAccountKubeconfig(admin: KubeClient, cluster: Cluster, namespace: string, name: string): Promise<string> {
  const request = await admin.create<{ status?: { token?: string } }>(`/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`, {
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    spec: { expirationSeconds: 3600 },
  });
  const token = request.status?.token;
  if (!token) throw new Error(`no token issued for ${namespace}/${name}`);
  return renderKubeconfig({ cluster: cluster.name, server: cluster.server, caCert: cluster.caCert, user: name, credentials: { token } });
}
