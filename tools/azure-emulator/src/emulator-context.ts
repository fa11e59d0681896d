import type { ArmContext } from './arm/context.js';
import type { RoleAssignments } from './authorization/role-assignments.js';
import type { Limits } from './limits.js';
import type { AddressPool } from './network/address-pool.js';
import type { PrivateLinkConnections } from './private-link/connections.js';

/** Everything resource kinds may consult: the ARM machinery plus cross-provider state. */
export interface EmulatorContext extends ArmContext {
  limits: Limits;
  addresses: AddressPool;
  privateLink: PrivateLinkConnections;
  /** The subscription AFD's managed private endpoints come from: never one of the user's. */
  afdManagedSubscriptionId: string;
  /** Azure RBAC: who may do what where (nobody is checked until assigned a role). */
  roles: RoleAssignments;
}
