import { createSecureContext, type SecureContext } from 'node:tls';
import { issueHostCertificate, type ServerCertificates } from '../tls/certificates.js';

/**
 * The edge's TLS side: for every host it serves (the endpoint's host name and validated custom domains), a
 * certificate from the emulator's CA, chosen by SNI, as AFD presents its managed certificate. A host the edge does
 * not serve gets no certificate, so the handshake fails.
 */
export class EdgeCertificates {
  private readonly contexts = new Map<string, Promise<SecureContext>>();

  constructor(
    private readonly ca: Pick<ServerCertificates, 'caCertificate' | 'caKey'>,
    /** The name the certificate is issued for (a wildcard domain's `*.` name), or undefined when the host is not served. */
    private readonly certificateNameFor: (host: string) => string | undefined,
  ) {}

  readonly sniCallback = (servername: string, callback: (error: Error | null, context?: SecureContext) => void): void => {
    const name = this.certificateNameFor(servername.toLowerCase());
    if (name === undefined) {
      callback(new Error(`no certificate for ${servername}: the edge does not serve it`));
      return;
    }
    let context = this.contexts.get(name);
    if (context === undefined) {
      context = issueHostCertificate(this.ca, name).then((issued) => createSecureContext({ key: issued.key, cert: issued.cert }));
      this.contexts.set(name, context);
    }
    context.then(
      (c) => callback(null, c),
      (error: Error) => callback(error),
    );
  };
}
