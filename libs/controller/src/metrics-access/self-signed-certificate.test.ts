import { createPrivateKey, X509Certificate } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { selfSignedCertificate } from './self-signed-certificate.js';

const notBefore = new Date('2026-12-01T10:20:30Z');

describe('selfSignedCertificate (read back by OpenSSL through X509Certificate)', () => {
  it('is a v3 server certificate signed by its own key, for exactly the names and addresses given', () => {
    const { cert, key } = selfSignedCertificate({
      commonName: 'agent-7f9c',
      dnsNames: ['localhost', 'agent-7f9c'],
      ipAddresses: ['127.0.0.1', '::1', 'fd00::a:1'],
      notBefore,
      notAfter: new Date('2027-12-01T10:20:30Z'),
    });
    const certificate = new X509Certificate(cert);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkPrivateKey(createPrivateKey(key))).toBe(true);
    expect(certificate.subject).toBe('CN=agent-7f9c');
    expect(certificate.issuer).toBe('CN=agent-7f9c');
    expect(certificate.subjectAltName).toBe('DNS:localhost, DNS:agent-7f9c, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, IP Address:FD00:0:0:0:0:0:A:1');
    expect(certificate.checkHost('agent-7f9c')).toBe('agent-7f9c');
    expect(certificate.checkHost('elsewhere.example')).toBeUndefined();
    expect(certificate.checkIP('127.0.0.2')).toBeUndefined();
    expect(certificate.ca).toBe(false);
    expect(certificate.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(certificate.validFromDate).toEqual(notBefore);
    expect(certificate.validToDate).toEqual(new Date('2027-12-01T10:20:30Z'));
    expect(certificate.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
  });

  it('writes dates from 2050 on as GeneralizedTime, and two certificates never share a serial', () => {
    const options = { commonName: 'x', dnsNames: ['localhost'], ipAddresses: [], notBefore, notAfter: new Date('2051-06-30T23:59:59Z') };
    const [a, b] = [new X509Certificate(selfSignedCertificate(options).cert), new X509Certificate(selfSignedCertificate(options).cert)];
    expect(a.validToDate).toEqual(new Date('2051-06-30T23:59:59Z'));
    expect(a.serialNumber).not.toBe(b.serialNumber);
  });

  it('encodes any number of names, short or past the long-form lengths, so that each one checks', () => {
    const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/);
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.')),
          { minLength: 1, maxLength: 40 },
        ),
        (dnsNames) => {
          const certificate = new X509Certificate(
            selfSignedCertificate({ commonName: 'agent', dnsNames, ipAddresses: ['10.0.0.1'], notBefore, notAfter: new Date('2027-01-01T00:00:00Z') }).cert,
          );
          expect(certificate.verify(certificate.publicKey)).toBe(true);
          for (const name of dnsNames) expect(certificate.checkHost(name, { wildcards: false })).toBe(name);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('refuses an address that is not one', () => {
    expect(() =>
      selfSignedCertificate({ commonName: 'x', dnsNames: [], ipAddresses: ['fd00::g'], notBefore, notAfter: new Date('2027-01-01T00:00:00Z') }),
    ).toThrow('"fd00::g" is not an IP address');
  });
});
