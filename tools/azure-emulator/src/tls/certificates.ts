import { generate } from 'selfsigned';

export interface ServerCertificates {
  /** PEM of the CA that signed the server certificate: what clients trust. */
  caCertificate: string;
  /** The CA's private key, which signs the edge's per-host certificates. */
  caKey: string;
  key: string;
  cert: string;
}

export interface HostCertificate {
  key: string;
  cert: string;
}

const ONE_DAY_MS = 24 * 3600 * 1000;

/** A throw-away CA and a server certificate for 127.0.0.1 / localhost, generated at start (EC P-256: fast). */
export async function createServerCertificates(): Promise<ServerCertificates> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(Date.now() + 30 * ONE_DAY_MS);
  const ca = await generate([{ name: 'commonName', value: 'azure-emulator local CA' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const server = await signLeafCertificate({ caCertificate: ca.cert, caKey: ca.private }, '127.0.0.1', [
    { type: 7, ip: '127.0.0.1' },
    { type: 2, value: 'localhost' },
  ]);
  return { caCertificate: ca.cert, caKey: ca.private, key: server.key, cert: server.cert };
}

/** A certificate for one host name (a wildcard too) signed by the emulator's CA: what an AFD-managed certificate is here. */
export function issueHostCertificate(ca: Pick<ServerCertificates, 'caCertificate' | 'caKey'>, hostName: string): Promise<HostCertificate> {
  return signLeafCertificate(ca, hostName, [{ type: 2, value: hostName }]);
}

/** A 30-day EC P-256 server certificate signed by the emulator's CA. */
async function signLeafCertificate(
  ca: Pick<ServerCertificates, 'caCertificate' | 'caKey'>,
  commonName: string,
  altNames: Array<{ type: 2; value: string } | { type: 7; ip: string }>,
): Promise<HostCertificate> {
  const issued = await generate([{ name: 'commonName', value: commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 60_000),
    notAfterDate: new Date(Date.now() + 30 * ONE_DAY_MS),
    ca: { key: ca.caKey, cert: ca.caCertificate },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { key: issued.private, cert: issued.cert };
}
