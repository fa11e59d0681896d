import type { KubeObject } from '../kube/kube-object.js';

/** coordination.k8s.io/v1 Lease, as far as leader election reads and writes it. */
export interface Lease extends KubeObject {
  readonly spec?: LeaseSpec;
}

export interface LeaseSpec {
  readonly holderIdentity?: string;
  readonly leaseDurationSeconds?: number;
  /** MicroTime strings: six fractional digits (see formatMicroTime). */
  readonly acquireTime?: string;
  readonly renewTime?: string;
  readonly leaseTransitions?: number;
}

export const leaseResource = {
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
} as const;
