import type { ClientRequest } from 'node:http';
import { isIP } from 'node:net';
import { checkServerIdentity, type TLSSocket } from 'node:tls';

/**
 * How the edge speaks TLS to an origin (probes and forwarded requests alike). AFD sends the name it expects (the
 * origin host header) as SNI and, with `enforceCertificateNameCheck` (schema default true), refuses a certificate
 * whose subject does not match that name. The chain is not verified: AFD trusts only its list of public CAs, which
 * no local origin can present (ledger A46).
 */
export interface OriginTlsTarget {
  /** The name the origin's certificate must carry: the Host sent to the origin. */
  expectedName: string;
  enforceCertificateNameCheck: boolean;
}

/** TLS options for `https.request`: SNI (never an IP address, RFC 6066) and no chain verification. */
export function originTlsOptions(target: OriginTlsTarget): { servername?: string; rejectUnauthorized: false } {
  return { ...(isIP(target.expectedName) === 0 ? { servername: target.expectedName } : {}), rejectUnauthorized: false };
}

/**
 * Checks the certificate's subject name as soon as the handshake is done (or at once on a reused connection); a
 * mismatch fails the request as AFD's `CertificateNameCheckFailed` does. Node skips its own identity check when the
 * chain is not verified, hence this.
 */
export function enforceOriginCertificateName(request: ClientRequest, target: OriginTlsTarget): void {
  if (!target.enforceCertificateNameCheck) return;
  request.once('socket', (socket) => {
    const tlsSocket = socket as TLSSocket;
    const check = (): void => {
      const mismatch = checkServerIdentity(target.expectedName, tlsSocket.getPeerCertificate());
      if (mismatch !== undefined) request.destroy(new Error(`CertificateNameCheckFailed: ${mismatch.message}`));
    };
    const handshakeDone = Object.keys(tlsSocket.getPeerCertificate() ?? {}).length > 0;
    if (handshakeDone) check();
    else tlsSocket.once('secureConnect', check);
  });
}
