import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/** This replica in a Lease and in Events: the host (the pod name in Kubernetes) and a random suffix. */
export function replicaIdentity(): string {
  return `${hostname()}_${randomBytes(4).toString('hex')}`;
}
