import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import type { Logger } from '../observability/logger.js';
import { selfSignedCertificate } from './self-signed-certificate.js';

/** A PEM certificate (chain) and its private key. */
export interface KeyPair {
  readonly cert: string;
  readonly key: string;
}

/** Where a TLS server's certificate comes from: the pair to start with, and, for files that rotate, their changes. */
export interface ServingCertificate {
  readonly initial: KeyPair;
  /** Calls `apply` with each new valid pair until the returned function is called. */
  readonly watch?: (apply: (pair: KeyPair) => void) => () => void;
}

const ONE_YEAR_MS = 365 * 24 * 3600 * 1000;

/**
 * A certificate made in memory at start, as controller-runtime's secure metrics server does without a cert dir: an
 * EC P-256 key, valid a year, for localhost, the loopback addresses and this host's name (a pod's name). Nothing
 * trusts it, so a scraper either skips verification or is given a certificate of its own through --metrics-cert-dir.
 */
export function selfSignedServingCertificate(): ServingCertificate {
  const notBefore = new Date(Date.now() - 60_000);
  const host = hostname();
  const initial = selfSignedCertificate({
    commonName: `${host}@${Math.floor(notBefore.getTime() / 1000)}`,
    dnsNames: ['localhost', ...(/^[a-z0-9]([-.a-z0-9]*[a-z0-9])?$/i.test(host) && host !== 'localhost' ? [host] : [])],
    ipAddresses: ['127.0.0.1', '::1'],
    notBefore,
    notAfter: new Date(notBefore.getTime() + ONE_YEAR_MS),
  });
  return { initial };
}

export interface CertificateDirOptions {
  /** Holds tls.crt and tls.key (a mounted kubernetes.io/tls Secret). */
  readonly dir: string;
  readonly logger: Logger;
  /** How often the files are read again for a rotated pair (default 10 s, as controller-runtime's certwatcher polls). */
  readonly pollIntervalMs?: number;
}

/**
 * The pair in `dir`'s tls.crt and tls.key, read again every poll: a rotated pair (cert-manager renewing the Secret)
 * serves new connections from then on. Missing or invalid files at start are an error naming the file; a rotation
 * caught half-written keeps the previous pair until the next poll reads a valid one.
 */
export async function certificateDirServingCertificate(options: CertificateDirOptions): Promise<ServingCertificate> {
  const initial = await readKeyPair(options.dir);
  return {
    initial,
    watch: (apply) => {
      let current = initial;
      let reading = false;
      const timer = setInterval(() => {
        if (reading) return;
        reading = true;
        readKeyPair(options.dir)
          .then((pair) => {
            if (pair.cert === current.cert && pair.key === current.key) return;
            current = pair;
            apply(pair);
            options.logger.info('metrics serving certificate reloaded', { dir: options.dir });
          })
          .catch((error: unknown) => {
            options.logger.warn('metrics serving certificate not reloaded; the previous one still serves', {
              error: error instanceof Error ? error.message : String(error),
            });
          })
          .finally(() => {
            reading = false;
          });
      }, options.pollIntervalMs ?? 10_000);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

async function readKeyPair(dir: string): Promise<KeyPair> {
  const read = async (file: string) => {
    const full = path.join(dir, file);
    try {
      return await readFile(full, 'utf8');
    } catch (error) {
      throw new Error(`${full} cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); expected a PEM file`, { cause: error });
    }
  };
  // One after the other, so that with both missing the error names tls.crt every time.
  const cert = await read('tls.crt');
  const key = await read('tls.key');
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw new Error(
      `${path.join(dir, 'tls.crt')} and tls.key are not a PEM certificate and its private key (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  return { cert, key };
}
