import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** The identity tokens are issued to: a system-assigned managed identity of this emulator. */
export interface ManagedIdentitySettings {
  tenantId: string;
  clientId: string;
  principalId: string;
  /** Token lifetime; Azure's managed-identity tokens last about 24 hours. */
  lifetimeSeconds: number;
}

export interface IssuedToken {
  accessToken: string;
  /** Seconds since the epoch. */
  expiresOn: number;
  resource: string;
  clientId: string;
}

interface TokenClaims {
  aud: string;
  iss: string;
  tid: string;
  oid: string;
  appid: string;
  idtyp: 'app';
  iat: number;
  nbf: number;
  exp: number;
  jti: string;
}

export type TokenCheck =
  { valid: true; claims: TokenClaims } | { valid: false; reason: 'not-issued' } | { valid: false; reason: 'expired'; expiredAt: Date; checkedAt: Date };

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Issues JWT-shaped access tokens (header.claims.signature, HS256 under a key that lives only in this process) and
 * recognises its own: the ARM endpoint can then refuse tokens it did not issue, as ARM refuses tokens Entra ID did not.
 */
export class TokenIssuer {
  private readonly key = randomBytes(32);

  constructor(
    readonly identity: ManagedIdentitySettings,
    private readonly now: () => number,
  ) {}

  issue(resource: string): IssuedToken {
    const { clientId } = this.identity;
    const issuedAt = Math.floor(this.now() / 1000);
    const claims: TokenClaims = {
      aud: resource,
      iss: `https://sts.windows.net/${this.identity.tenantId}/`,
      tid: this.identity.tenantId,
      oid: this.identity.principalId,
      appid: clientId,
      idtyp: 'app',
      iat: issuedAt,
      nbf: issuedAt,
      exp: issuedAt + this.identity.lifetimeSeconds,
      jti: randomUUID(),
    };
    const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
    return { accessToken: `${unsigned}.${this.sign(unsigned)}`, expiresOn: claims.exp, resource, clientId };
  }

  check(token: string): TokenCheck {
    const parts = token.split('.');
    if (parts.length !== 3) return { valid: false, reason: 'not-issued' };
    const [header, payload, signature] = parts as [string, string, string];
    const expected = Buffer.from(this.sign(`${header}.${payload}`));
    const actual = Buffer.from(signature);
    if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return { valid: false, reason: 'not-issued' };
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TokenClaims;
    const now = this.now();
    if (claims.exp * 1000 <= now) return { valid: false, reason: 'expired', expiredAt: new Date(claims.exp * 1000), checkedAt: new Date(now) };
    return { valid: true, claims };
  }

  private sign(unsigned: string): string {
    return createHmac('sha256', this.key).update(unsigned).digest('base64url');
  }
}
