import type { OriginConnectivity } from '@fleet-gateway/annotations';
import type { ClusterOrigin } from './cluster-origins.js';
import type { ResolvedConnectivity } from '../model/model-types.js';

export type ConnectivityDecision =
  { readonly ok: true; readonly connectivity: ResolvedConnectivity } | { readonly ok: false; readonly reason: string; readonly message: string };

type Known = Extract<ClusterOrigin, { state: 'known' }>;

function names(origins: readonly Known[]): string {
  return origins.map((o) => o.cluster).join(', ');
}

/**
 * Chooses how AFD reaches a backend's clusters (upstream design §2.5). Only clusters with known data vote; never a
 * silent downgrade from Private Link to public.
 */
export function decideConnectivity(mode: OriginConnectivity, origins: readonly ClusterOrigin[]): ConnectivityDecision {
  const known = origins.filter((o): o is Known => o.state === 'known');
  const withoutPrivateLink = known.filter((o) => !o.privateLink);
  const withoutPublic = known.filter((o) => !o.publicAddress);
  if (mode === 'private-link' || mode === 'public') {
    const missing = mode === 'private-link' ? withoutPrivateLink : withoutPublic;
    if (missing.length === 0) return { ok: true, connectivity: mode };
    const what = mode === 'private-link' ? 'a Private Link Service (never downgraded to public)' : 'a public address';
    return {
      ok: false,
      reason: 'OriginConnectivityUnavailable',
      message: `connectivity ${mode} needs ${what} on every cluster; missing on ${names(missing)}`,
    };
  }
  if (known.length === 0) return { ok: true, connectivity: 'unknown' };
  if (withoutPrivateLink.length === 0) return { ok: true, connectivity: 'private-link' };
  if (withoutPublic.length === 0) return { ok: true, connectivity: 'public' };
  const privateSide = known.filter((o) => o.privateLink);
  const publicOnly = withoutPrivateLink.filter((o) => o.publicAddress);
  const neither = withoutPrivateLink.filter((o) => !o.publicAddress);
  const sides = [
    privateSide.length ? `Private Link Service on ${names(privateSide)}` : '',
    publicOnly.length ? `only a public address on ${names(publicOnly)}` : '',
    neither.length ? `neither on ${names(neither)}` : '',
  ].filter(Boolean);
  return {
    ok: false,
    reason: 'MixedOriginConnectivity',
    message: `connectivity auto needs all clusters on Private Link or all public: ${sides.join('; ')}`,
  };
}
