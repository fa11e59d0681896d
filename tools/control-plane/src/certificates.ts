import { generateKeyPairSync } from 'node:crypto';
import { generate } from 'selfsigned';

/** PEM material for one cluster: a CA that signs both the serving certificate and client certificates. */
export interface ClusterCertificates {
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  adminCert: string;
  adminKey: string;
  serviceAccountKey: string;
  serviceAccountPublicKey: string;
}

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

async function issue(
  subject: { name: string; value: string }[],
  ca: { key: string; cert: string },
  extensions: NonNullable<Parameters<typeof generate>[1]>['extensions'],
): Promise<{ cert: string; key: string }> {
  const now = new Date(Date.now() - 60_000);
  const result = await generate(subject, {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + ONE_YEAR_MS),
    ca,
    extensions,
  });
  return { cert: result.cert, key: result.private };
}

export async function createClusterCertificates(cluster: string): Promise<ClusterCertificates> {
  const now = new Date(Date.now() - 60_000);
  const ca = await generate([{ name: 'commonName', value: `${cluster}-ca` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: now,
    notAfterDate: new Date(now.getTime() + ONE_YEAR_MS),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
  });
  const signer = { key: ca.private, cert: ca.cert };
  const serving = await issue([{ name: 'commonName', value: `${cluster}-apiserver` }], signer, [
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
    { name: 'extKeyUsage', serverAuth: true },
    {
      name: 'subjectAltName',
      altNames: [
        { type: 7, ip: '127.0.0.1' },
        { type: 2, value: 'localhost' },
        { type: 2, value: 'kubernetes.default.svc' },
      ],
    },
  ]);
  // system:masters makes the admin client a superuser through RBAC's bootstrap binding.
  const admin = await issue(
    [
      { name: 'commonName', value: 'admin' },
      { name: 'organizationName', value: 'system:masters' },
    ],
    signer,
    [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', clientAuth: true },
    ],
  );
  const sa = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return {
    caCert: ca.cert,
    caKey: ca.private,
    servingCert: serving.cert,
    servingKey: serving.key,
    adminCert: admin.cert,
    adminKey: admin.key,
    serviceAccountKey: sa.privateKey,
    serviceAccountPublicKey: sa.publicKey,
  };
}
