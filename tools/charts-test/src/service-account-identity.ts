import { writeFile } from 'node:fs/promises';
import { renderKubeconfig, type Cluster } from '@fleet-gateway/control-plane';
import { KubeClient } from '@fleet-gateway/controller';
import { KubeConfig } from '@kubernetes/client-node';

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

/** A chart's ServiceAccount identity as the agent's process takes it (a kubeconfig file) and as a client for probing it. */
export interface ServiceAccountIdentity {
  readonly kubeconfigPath: string;
  readonly client: KubeClient;
}

/** Writes the identity of <namespace>/<name> (default fleet-system, where the charts' agents run) on `cluster` to `file` (mode 0600). */
export async function serviceAccountIdentity(
  admin: KubeClient,
  cluster: Cluster,
  name: string,
  file: string,
  namespace = 'fleet-system',
): Promise<ServiceAccountIdentity> {
  await writeFile(file, await serviceAccountKubeconfig(admin, cluster, namespace, name), { mode: 0o600 });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(file);
  return { kubeconfigPath: file, client: new KubeClient(kubeConfig) };
}
