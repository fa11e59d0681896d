import { readFile } from 'node:fs/promises';
import { KubeConfig, type User } from '@kubernetes/client-node';

const TOKEN_FILE_PROVIDER = 'fleet-gateway-token-file';

export interface TokenFileKubeConfigOptions {
  /** The API server, e.g. `https://hub.example:443`. */
  readonly server: string;
  /** A file holding the bearer token, rewritten in place or swapped by whoever rotates it. */
  readonly tokenFile: string;
  /** PEM of the CA that signed the server's certificate; without it the system's CAs are trusted. */
  readonly caPem?: string;
  /** The cluster's name in the kubeconfig (messages only). */
  readonly name?: string;
}

/**
 * A kubeconfig for a server reached with a bearer token from a file that another process rotates (fleet's
 * refresh-token sidecar, a projected service account token). The file is read for every request, so a rotated token
 * is sent from the next request on and a revoked one is never used again. client-node has no such user:
 * its kubeconfig `token-file` is read once at load, and its `tokenFile` auth provider re-reads only once a minute
 * and sends the file's trailing newline.
 */
export function tokenFileKubeConfig(options: TokenFileKubeConfigOptions): KubeConfig {
  const name = options.name ?? 'cluster';
  const kubeConfig = new KubeConfig();
  kubeConfig.addAuthenticator({
    isAuthProvider: (user: User) => user.authProvider?.name === TOKEN_FILE_PROVIDER,
    applyAuthentication: async (_user: User, request: { headers?: Record<string, unknown> }) => {
      request.headers = { ...request.headers, Authorization: `Bearer ${await readToken(options.tokenFile)}` };
    },
  });
  kubeConfig.loadFromOptions({
    clusters: [{ name, server: options.server, skipTLSVerify: false, ...(options.caPem ? { caData: Buffer.from(options.caPem).toString('base64') } : {}) }],
    users: [{ name: 'token-file', authProvider: { name: TOKEN_FILE_PROVIDER, config: {} } }],
    contexts: [{ name, cluster: name, user: 'token-file' }],
    currentContext: name,
  });
  return kubeConfig;
}

/** The token, without the newline an editor or `echo` leaves; never quoted in an error. */
async function readToken(file: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`the bearer token file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  const token = text.trim();
  if (token === '') throw new Error(`the bearer token file ${file} is empty`);
  return token;
}
