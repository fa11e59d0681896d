import type { ModelBackend, SourceRef, SplitEntry } from '@fleet-gateway/model';
import { originName } from './afd-names.js';
import { isOriginAddress } from './origin-address.js';
import type { OriginSpec } from './spec-types.js';

export interface OriginInput {
  readonly profile: string;
  readonly group: string;
  readonly entry: SplitEntry;
  readonly backend: ModelBackend;
  readonly rules: readonly SourceRef[];
}

// Every origin of a group shares one priority, so that weights alone spread the traffic.
const EQUAL_PRIORITY = 1;

/**
 * One AFD origin for one (group, backend, cluster). The backend port serves both AFD ports; the probe protocol
 * tells which one the backend speaks. Missing information (unknown member data, no request message issued yet)
 * yields a `keep` origin: its programmed state, if any, stays as it is.
 */
export function planOrigin(input: OriginInput): OriginSpec {
  const { profile, group, entry, backend } = input;
  const origin = backend.origins.find((o) => o.cluster === entry.cluster);
  const ref = { kind: 'origin' as const, profile, originGroup: group, origin: originName(backend.key, entry.cluster) };
  const provenance = [...input.rules, backend.source, ...(origin ? [origin.source] : [])];
  const keep = (reason: string): OriginSpec => ({ ref, keep: reason, backend: backend.key, cluster: entry.cluster, provenance });
  if (entry.state === 'unknown' || origin === undefined || origin.state === 'unknown') {
    return keep(`member data of cluster ${entry.cluster} for ${backend.key} is unknown${origin?.unknownReason ? `: ${origin.unknownReason}` : ''}`);
  }
  if (!origin.address) return keep(`cluster ${entry.cluster} reports no address for ${backend.key}`);
  // AFD refuses such an origin: sending it would fail the write and everything that waits on it.
  if (!isOriginAddress(origin.address)) {
    return keep(
      `cluster ${entry.cluster} reports address ${JSON.stringify(origin.address)} for ${backend.key}, which is neither a domain name nor an IP address`,
    );
  }
  const privateLink = backend.connectivity === 'private-link' ? origin.privateLink : undefined;
  if (backend.connectivity === 'private-link' && privateLink === undefined) {
    return keep(`cluster ${entry.cluster} reports no Private Link Service for ${backend.key}`);
  }
  if (privateLink && !privateLink.requestMessage) {
    return keep(`the Private Link request message for cluster ${entry.cluster} (${backend.key}) has not been issued yet`);
  }
  const enabled = entry.state === 'enabled';
  return {
    ref,
    backend: backend.key,
    cluster: entry.cluster,
    hostName: origin.address,
    ...(backend.originHostHeader ? { originHostHeader: backend.originHostHeader } : {}),
    httpPort: backend.port,
    httpsPort: backend.port,
    priority: EQUAL_PRIORITY,
    ...(enabled && entry.weight !== undefined ? { weight: entry.weight } : {}),
    enabledState: enabled ? 'Enabled' : 'Disabled',
    ...(privateLink
      ? {
          privateLink: {
            privateLinkId: privateLink.resourceId,
            location: privateLink.location,
            requestMessage: privateLink.requestMessage as string,
            memberState: privateLink.connectionState,
          },
        }
      : {}),
    provenance,
  };
}
