import { stringify } from 'yaml';

const b64 = (pem: string): string => Buffer.from(pem).toString('base64');

export type KubeconfigUser = { clientCert: string; clientKey: string } | { token: string };

/** A kubeconfig with everything embedded, so it stays valid wherever it is copied. */
export function renderKubeconfig(options: { cluster: string; server: string; caCert: string; user: string; credentials: KubeconfigUser }): string {
  const { cluster, server, caCert, user, credentials } = options;
  const userEntry =
    'token' in credentials
      ? { token: credentials.token }
      : { 'client-certificate-data': b64(credentials.clientCert), 'client-key-data': b64(credentials.clientKey) };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: cluster, cluster: { server, 'certificate-authority-data': b64(caCert) } }],
    users: [{ name: user, user: userEntry }],
    contexts: [{ name: `${user}@${cluster}`, context: { cluster, user } }],
    'current-context': `${user}@${cluster}`,
  });
}
