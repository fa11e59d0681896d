import { ArmError } from '../arm/errors.js';
import type { TokenIssuer } from './token-issuer.js';

/**
 * How the ARM endpoint checks the Bearer token: `any-bearer` takes any (the SDK test beds' fixed-token credential),
 * `issued-tokens` only tokens this emulator's managed-identity endpoint issued, unexpired, for ARM's audience.
 */
export type ArmAuthentication = 'any-bearer' | 'issued-tokens';

/** The audiences ARM accepts (its refusal lists exactly these); the emulator also takes its own URL. */
const ARM_AUDIENCES = [
  'https://management.core.windows.net/',
  'https://management.core.windows.net',
  'https://management.azure.com/',
  'https://management.azure.com',
];

/**
 * Throws ARM's 401 for a request whose Authorization header the mode refuses. Returns the principal (the token's
 * object id) when the token is one this emulator issued, in either mode: role assignments are checked against it.
 */
export function authenticateArmRequest(authorization: string | undefined, host: string, mode: ArmAuthentication, issuer: TokenIssuer): string | undefined {
  const token = authorization === undefined ? undefined : /^Bearer\s+(\S+)/i.exec(authorization)?.[1];
  if (token === undefined) {
    throw new ArmError(401, 'AuthenticationFailed', "Authentication failed. The 'Authorization' header is missing or is not a Bearer token.");
  }
  const check = issuer.check(token);
  if (mode === 'any-bearer') return check.valid ? check.claims.oid : undefined;
  if (!check.valid && check.reason === 'expired') {
    throw new ArmError(
      401,
      'ExpiredAuthenticationToken',
      `The access token expiry UTC time '${check.expiredAt.toISOString()}' is earlier than current UTC time '${check.checkedAt.toISOString()}'.`,
    );
  }
  if (!check.valid) throw new ArmError(401, 'InvalidAuthenticationToken', 'The access token is invalid.');
  const audiences = [...ARM_AUDIENCES, `https://${host}`, `https://${host}/`];
  if (!audiences.includes(check.claims.aud)) {
    throw new ArmError(
      401,
      'InvalidAuthenticationTokenAudience',
      `The access token has been obtained for wrong audience or resource '${check.claims.aud}'. It should exactly match with one of the allowed audiences ${ARM_AUDIENCES.map((audience) => `'${audience}'`).join(',')}.`,
    );
  }
  return check.claims.oid;
}
