import type { SourceRef } from '@fleet-gateway/model';
import { sinkOriginGroupName, sinkOriginName } from './afd-names.js';
import { WIDEST_LATENCY_BAND_MS } from './plan-origin-groups.js';
import type { OriginGroupSpec, ProgrammableOriginSpec } from './spec-types.js';

/**
 * Where a rule with no origin to send traffic to points instead: AFD refuses a route or a rule override to a group
 * without an enabled origin, and refuses disabling or deleting the last enabled origin of a group in use
 * (terraform-provider-azurerm #18333, #27652), so a withdrawn rule cannot keep its group with every origin disabled.
 * The sink is a controller-owned group per endpoint with one enabled origin at a host that can never resolve
 * (RFC 6761 reserves `.invalid`), so AFD answers with its own error (503) and never another backend. No health probe:
 * AFD allows none for a group with a single enabled origin, and probing a host that cannot resolve is noise.
 */
export const SINK_HOST_SUFFIX = '.withdrawn.invalid';

export interface PlannedSink {
  readonly group: OriginGroupSpec;
  readonly origin: ProgrammableOriginSpec;
}

// The sink's one origin: any valid values will do, nothing ever connects.
const SINK_PORT = 80;
const SINK_TLS_PORT = 443;
const SINK_WEIGHT = 1000;

export function planSink(profile: string, endpoint: string, provenance: readonly SourceRef[]): PlannedSink {
  const originGroup = sinkOriginGroupName(endpoint);
  return {
    group: { ref: { kind: 'originGroup', profile, originGroup }, additionalLatencyInMilliseconds: WIDEST_LATENCY_BAND_MS, backends: [], provenance },
    origin: {
      ref: { kind: 'origin', profile, originGroup, origin: sinkOriginName(endpoint) },
      backend: '',
      cluster: '',
      hostName: `${endpoint}${SINK_HOST_SUFFIX}`,
      httpPort: SINK_PORT,
      httpsPort: SINK_TLS_PORT,
      priority: 1,
      weight: SINK_WEIGHT,
      enabledState: 'Enabled',
      provenance,
    },
  };
}
