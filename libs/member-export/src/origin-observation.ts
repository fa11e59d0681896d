import type { InternalServiceExportSpec } from '@fleet-gateway/api-types';
import type { DesiredCondition } from '@fleet-gateway/controller';
import type { CachedInternalServiceExport, CachedService } from './member-resources.js';

/** The InternalServiceExport spec fields origin discovery owns: addresses and, later, the Private Link Service. */
export const ORIGIN_FIELD_KEYS = ['publicAddress', 'internalLoadBalancerIP', 'privateLinkService', 'privateEndpointConnections', 'azureDataStale'] as const;
export type OriginFields = Pick<InternalServiceExportSpec, (typeof ORIGIN_FIELD_KEYS)[number]>;

/** A condition discovery puts on the ServiceExport; resolve adds the ServiceExport's generation. */
export type OriginCondition = Omit<DesiredCondition, 'observedGeneration'>;

/** An event discovery wants recorded on the ServiceExport when the published origin changes. */
export interface OriginEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly note: string;
}

/** What discovery saw of one Service's origin, as data: resolve decides what of it is written. */
export interface OriginObservation {
  readonly fields: OriginFields;
  readonly conditions: readonly OriginCondition[];
  /** Set while what the origin needs is not there yet (no address): the reconcile looks again after this long. */
  readonly recheck?: { readonly afterMs: number; readonly reason: string };
  /** What discovery did this time that the ServiceExport's events should tell (an approval). */
  readonly events?: readonly OriginEvent[];
}

export interface OriginDiscoveryContext {
  /** The hub's InternalServiceExport of this Service as cached (its status carries the hub's frontDoors). */
  readonly hubExport: CachedInternalServiceExport | undefined;
  /** `<hub namespace>/<name>` of that InternalServiceExport, for messages (it may not exist yet). */
  readonly hubExportRef: string;
  readonly signal: AbortSignal;
}

/**
 * The seam for origin discovery. The public load balancer discovery needs no Azure call; a Private Link discovery
 * (internal load balancer + PLS through @azure/arm-network) plugs in here for internal load balancer Services.
 * Expected conditions are answered as an observation; only a failed read throws.
 */
export interface OriginDiscovery {
  observe(service: CachedService, context: OriginDiscoveryContext): Promise<OriginObservation>;
  /** Drops what discovery keeps about a Service that is no longer exported. */
  forget?(namespace: string, name: string): void;
}

export const NO_ORIGIN: OriginObservation = { fields: {}, conditions: [] };
