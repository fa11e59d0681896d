/**
 * The bearer token of an `Authorization` header, as the API server's own bearer-token authenticator reads it
 * (k8s.io/apiserver request/bearertoken): the scheme compared case-insensitively, then one token; anything else —
 * no header, another scheme, an empty token — is no token. A token with whitespace inside is refused rather than cut.
 */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const match = /^bearer +(\S+)$/i.exec(header?.trim() ?? '');
  return match?.[1];
}
