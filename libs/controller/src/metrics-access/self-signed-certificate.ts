import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIPv4 } from 'node:net';

/**
 * A self-signed X.509 v3 server certificate made with node:crypto alone: an EC P-256 key, signed ECDSA with SHA-256,
 * with the names and addresses given as subject alternative names. Node can sign but has no certificate builder, and
 * an X.509 library costs the agent ~12 MiB resident and half a megabyte of bundle for this one certificate, so the
 * few DER structures RFC 5280 needs are written here; Node's own X509Certificate (OpenSSL) reads the result in the
 * tests, and TLS clients verify it.
 */
export function selfSignedCertificate(options: {
  commonName: string;
  dnsNames: readonly string[];
  ipAddresses: readonly string[];
  notBefore: Date;
  notAfter: Date;
}): {
  cert: string;
  key: string;
} {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const ecdsaWithSha256 = sequence(oid('1.2.840.10045.4.3.2'));
  const name = sequence(set(sequence(oid('2.5.4.3'), tagged(0x0c, Buffer.from(options.commonName, 'utf8')))));
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x40; // positive, and minimal as DER wants (no leading zero byte)
  const altNames = [
    ...options.dnsNames.map((dns) => tagged(0x82, Buffer.from(dns, 'ascii'))),
    ...options.ipAddresses.map((ip) => tagged(0x87, ipAddressBytes(ip))),
  ];
  const extensions = [
    extension('2.5.29.19', true, sequence()), // basicConstraints: not a CA
    extension('2.5.29.15', true, tagged(0x03, Buffer.from([0x07, 0x80]))), // keyUsage: digitalSignature
    extension('2.5.29.37', false, sequence(oid('1.3.6.1.5.5.7.3.1'))), // extKeyUsage: serverAuth
    extension('2.5.29.17', false, sequence(...altNames)), // subjectAltName
  ];
  const tbs = sequence(
    tagged(0xa0, tagged(0x02, Buffer.from([2]))), // v3
    tagged(0x02, serial),
    ecdsaWithSha256,
    name,
    sequence(time(options.notBefore), time(options.notAfter)),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    tagged(0xa3, sequence(...extensions)),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = sequence(tbs, ecdsaWithSha256, tagged(0x03, Buffer.concat([Buffer.from([0]), signature])));
  const base64Lines = der
    .toString('base64')
    .match(/.{1,64}/g)!
    .join('\n');
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${base64Lines}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

/** One DER value: tag, definite length (short form below 128 bytes, else long form), content. */
function tagged(tag: number, content: Buffer): Buffer {
  const { length } = content;
  if (length < 0x80) return Buffer.concat([Buffer.from([tag, length]), content]);
  const lengthBytes: number[] = [];
  for (let rest = length; rest > 0; rest >>= 8) lengthBytes.unshift(rest & 0xff);
  return Buffer.concat([Buffer.from([tag, 0x80 | lengthBytes.length, ...lengthBytes]), content]);
}

const sequence = (...items: Buffer[]): Buffer => tagged(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tagged(0x31, Buffer.concat(items));

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [40 * first + second];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let high = arc >> 7; high > 0; high >>= 7) base128.unshift(0x80 | (high & 0x7f));
    bytes.push(...base128);
  }
  return tagged(0x06, Buffer.from(bytes));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(oid(id), ...(critical ? [tagged(0x01, Buffer.from([0xff]))] : []), tagged(0x04, value));
}

/** RFC 5280: UTCTime through 2049, GeneralizedTime from 2050, both to the second in UTC. */
function time(date: Date): Buffer {
  const digits = date
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:T]/g, '');
  return date.getUTCFullYear() < 2050 ? tagged(0x17, Buffer.from(digits.slice(2), 'ascii')) : tagged(0x18, Buffer.from(digits, 'ascii'));
}

/** An IPv4 address as 4 bytes, an IPv6 one (with at most one `::`) as 16. */
function ipAddressBytes(ip: string): Buffer {
  if (isIPv4(ip)) return Buffer.from(ip.split('.').map(Number));
  const [head = '', tail] = ip.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const [before, after] = [groups(head), tail === undefined ? [] : groups(tail)];
  const all = [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
  if (all.length !== 8 || all.some((group) => !(group >= 0 && group <= 0xffff))) throw new Error(`"${ip}" is not an IP address`);
  return Buffer.from(all.flatMap((group) => [group >> 8, group & 0xff]));
}
