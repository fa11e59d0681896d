import { readFileSync } from 'node:fs';

/**
 * How the member agent reaches the hub: a kubeconfig file (`--hub-kubeconfig`), or upstream fleet-networking's
 * member agent environment (pkg/common/hubconfig): `HUB_SERVER_URL`, the bearer token file `CONFIG_PATH` that the
 * refresh-token sidecar rewrites, and `HUB_CERTIFICATE_AUTHORITY`, the hub CA's PEM in base64.
 */
export type HubConnection =
  | { readonly kind: 'kubeconfig'; readonly file: string }
  | { readonly kind: 'token-file'; readonly server: string; readonly tokenFile: string; readonly caPem?: string };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/;
const BASE64 = /^[A-Za-z0-9+/\s]+={0,2}\s*$/;

/** A long value (a CA bundle) quoted by its start only. */
const shortened = (value: string) => (value.length > 24 ? `${value.slice(0, 24)}…` : value);

/**
 * The hub connection from the flag, else from the environment (the flag wins); every problem is appended to
 * errors, naming the flag or variable, the value and what is expected. The token itself is never quoted.
 */
export function readHubConnection(kubeconfig: string | undefined, environment: NodeJS.ProcessEnv, errors: string[]): HubConnection | undefined {
  if (kubeconfig) return { kind: 'kubeconfig', file: kubeconfig };
  const server = environment['HUB_SERVER_URL'] || undefined;
  const tokenFile = environment['CONFIG_PATH'] || undefined;
  const ca = environment['HUB_CERTIFICATE_AUTHORITY'] || undefined;
  if (server === undefined) {
    errors.push('--hub-kubeconfig or HUB_SERVER_URL (with CONFIG_PATH) is required: how this member reaches the hub, scoped to fleet-member-<member>');
    return undefined;
  }
  const problems = errors.length;
  if (!isHttpsUrl(server))
    errors.push(`HUB_SERVER_URL has invalid value "${server}"; expected the hub API server's https URL such as https://hub.example.com:443`);
  if (tokenFile === undefined) {
    errors.push('CONFIG_PATH must be set with HUB_SERVER_URL; expected the file holding the hub bearer token (the refresh-token sidecar writes it)');
  } else {
    const tokenError = checkTokenFile(tokenFile);
    if (tokenError) errors.push(tokenError);
  }
  const caPem = ca === undefined ? undefined : decodeCa(ca);
  if (ca !== undefined && caPem === undefined) {
    errors.push(`HUB_CERTIFICATE_AUTHORITY has invalid value "${shortened(ca)}"; expected the hub CA certificate as base64 of its PEM`);
  }
  if (errors.length > problems || tokenFile === undefined) return undefined;
  return { kind: 'token-file', server, tokenFile, ...(caPem ? { caPem } : {}) };
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:';
  } catch {
    return false;
  }
}

function checkTokenFile(file: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return `CONFIG_PATH "${file}" cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); expected a file holding the hub bearer token`;
  }
  return text.trim() === '' ? `CONFIG_PATH "${file}" is empty; expected a file holding the hub bearer token` : undefined;
}

function decodeCa(value: string): string | undefined {
  if (!BASE64.test(value)) return undefined;
  const pem = Buffer.from(value, 'base64').toString('utf8');
  return PEM_CERTIFICATE.test(pem) ? pem : undefined;
}
