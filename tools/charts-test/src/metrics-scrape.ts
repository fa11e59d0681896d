import { request } from 'node:https';
import type { KubeClient } from '@fleet-gateway/controller';

/**
 * A token of a new ServiceAccount `name` in fleet-system, bound to `clusterRole` when one is named: a scraper such as
 * Prometheus, allowed to read /metrics by the chart's metrics-reader role, or a stranger without the binding.
 */
export async function scraperToken(admin: KubeClient, name: string, clusterRole?: string): Promise<string> {
  await admin.create('/api/v1/namespaces/fleet-system/serviceaccounts', { metadata: { name } });
  if (clusterRole) {
    await admin.create('/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
      metadata: { name: `${name}-${clusterRole}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
      subjects: [{ kind: 'ServiceAccount', name, namespace: 'fleet-system' }],
    });
  }
  const issued = await admin.create<{ status: { token: string } }>(`/api/v1/namespaces/fleet-system/serviceaccounts/${name}/token`, {
    spec: { expirationSeconds: 3600 },
  });
  return issued.status.token;
}

/**
 * GET of an agent's secure /metrics with an optional bearer token. The agent's certificate is self-signed at its
 * start, so there is nothing to verify it against: like a scraper told insecure_skip_verify, this does not.
 */
export function scrapeMetrics(url: string, token?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { rejectUnauthorized: false, headers: token === undefined ? {} : { authorization: `Bearer ${token}` } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    outgoing.on('error', reject).end();
  });
}
