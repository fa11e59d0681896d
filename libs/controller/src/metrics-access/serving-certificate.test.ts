import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from 'node:tls';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startHealthServer, type HealthServer } from '../observability/health-server.js';
import { createLogger, silentLogger } from '../observability/logger.js';
import { captureLogLines, logsFlushed } from '../test-support/log-capture.js';
import { certificateDirServingCertificate, selfSignedServingCertificate, type KeyPair } from './serving-certificate.js';

let dir: string;
let server: HealthServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'serving-certificate-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const writePair = async (pair: KeyPair) => {
  await writeFile(path.join(dir, 'tls.crt'), pair.cert);
  await writeFile(path.join(dir, 'tls.key'), pair.key);
};

/** The fingerprint of the certificate a new TLS connection to `port` is served. */
function servedFingerprint(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
      resolve(new X509Certificate(socket.getPeerCertificate().raw).fingerprint256);
      socket.end();
    });
    socket.on('error', reject);
  });
}

describe('the self-signed serving certificate', () => {
  it('is a server certificate for localhost and the loopback addresses, valid now, with its key', async () => {
    const { initial, watch } = selfSignedServingCertificate();
    const certificate = new X509Certificate(initial.cert);
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkIP('::1')).toBe('::1');
    expect(new Date(certificate.validFrom).getTime()).toBeLessThanOrEqual(Date.now());
    expect(new Date(certificate.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 3600 * 1000);
    expect(certificate.ca).toBe(false);
    expect(initial.key).toContain('PRIVATE KEY');
    expect(watch).toBeUndefined();
  });
});

describe('the serving certificate of a cert dir', () => {
  it('serves the pair in tls.crt/tls.key, then a rotated pair to new connections; a half-written rotation keeps the old one', async () => {
    const [first, second] = [selfSignedServingCertificate().initial, selfSignedServingCertificate().initial];
    await writePair(first);
    const { stream, lines } = captureLogLines();
    const tls = await certificateDirServingCertificate({ dir, logger: createLogger({ level: 'info', stream }), pollIntervalMs: 20 });
    server = await startHealthServer({ host: '127.0.0.1', port: 0, registry: new Registry(), probes: false, tls });
    const fingerprint = (pair: KeyPair) => new X509Certificate(pair.cert).fingerprint256;
    expect(await servedFingerprint(server.port)).toBe(fingerprint(first));

    await writeFile(path.join(dir, 'tls.crt'), second.cert); // the key not yet: a mismatched pair
    await expect
      .poll(async () => {
        await logsFlushed();
        return lines.some((l) => l.level === 'warn');
      })
      .toBe(true);
    expect(await servedFingerprint(server.port)).toBe(fingerprint(first));

    await writeFile(path.join(dir, 'tls.key'), second.key);
    await expect.poll(() => servedFingerprint(server!.port)).toBe(fingerprint(second));
    await logsFlushed();
    expect(lines.filter((l) => l.message === 'metrics serving certificate reloaded')).toHaveLength(1);
  });

  it('refuses to start without a readable, matching pair, naming the file', async () => {
    const logger = silentLogger();
    await expect(certificateDirServingCertificate({ dir, logger })).rejects.toThrow(
      `${path.join(dir, 'tls.crt')} cannot be read (ENOENT); expected a PEM file`,
    );
    await writePair({ cert: 'not a certificate', key: 'not a key' });
    await expect(certificateDirServingCertificate({ dir, logger })).rejects.toThrow(
      `${path.join(dir, 'tls.crt')} and tls.key are not a PEM certificate and its private key`,
    );
  });
});
