import { ArmError } from '../arm/errors.js';
import type { ArmAction } from './arm-action.js';
import { roleGrants, type RoleDefinition } from './role-definition.js';

/** One role assignment: a principal (a token's object id) holds a role at a scope and everything under it. */
export interface RoleAssignment {
  readonly principalId: string;
  /** A subscription, resource group or resource id. */
  readonly scope: string;
  readonly role: RoleDefinition;
}

const covers = (assigned: string, scope: string): boolean => {
  const [outer, inner] = [assigned.toLowerCase().replace(/\/+$/, ''), scope.toLowerCase()];
  return inner === outer || inner.startsWith(`${outer}/`);
};

const principalKey = (principalId: string): string => principalId.toLowerCase();

/**
 * Azure RBAC for the emulator's ARM endpoint: a principal with at least one assignment gets only what its roles
 * grant, at or above each request's scope; a principal with none (and any request whose token names no principal)
 * is not checked, as before assignments existed. Every action a checked principal asked for is recorded, so that a
 * test can compare what the code exercised with what its role grants.
 */
export class RoleAssignments {
  private readonly assignments: RoleAssignment[] = [];
  private readonly exercised = new Map<string, Set<string>>();

  assign(assignment: RoleAssignment): void {
    this.assignments.push(assignment);
  }

  list(): RoleAssignment[] {
    return [...this.assignments];
  }

  /** Removes every assignment and record: ARM is open again to every principal. */
  clear(): void {
    this.assignments.length = 0;
    this.exercised.clear();
  }

  /** The actions a principal asked for while checked, granted or refused, sorted. */
  exercisedBy(principalId: string): string[] {
    return [...(this.exercised.get(principalKey(principalId)) ?? [])].sort();
  }

  /**
   * Throws ARM's 403 `AuthorizationFailed` when the principal is checked and no role assigned at or above the scope
   * grants the action, and `LinkedAuthorizationFailed` when the request is allowed but a resource it names is not.
   */
  authorize(principalId: string | undefined, request: ArmAction, linked: readonly ArmAction[] = []): void {
    if (principalId === undefined) return;
    const held = this.assignments.filter((a) => principalKey(a.principalId) === principalKey(principalId));
    if (held.length === 0) return;
    const allowed = (wanted: ArmAction): boolean => {
      this.record(principalId, wanted.action);
      return held.some((a) => covers(a.scope, wanted.scope) && roleGrants(a.role, wanted.action));
    };
    if (!allowed(request)) {
      throw new ArmError(
        403,
        'AuthorizationFailed',
        `The client '${principalId}' with object id '${principalId}' does not have authorization to perform action '${request.action}' over scope '${request.scope}' or the scope is invalid. If access was recently granted, please refresh your credentials.`,
      );
    }
    const refused = linked.filter((wanted) => !allowed(wanted));
    if (refused.length > 0) {
      throw new ArmError(
        403,
        'LinkedAuthorizationFailed',
        `The client '${principalId}' with object id '${principalId}' has permission to perform action '${request.action}' on scope '${request.scope}'; however, it does not have permission to perform action(s) '${refused.map((r) => r.action).join(',')}' on the linked scope(s) '${refused.map((r) => r.scope).join(',')}' or the linked scope(s) are invalid.`,
      );
    }
  }

  private record(principalId: string, action: string): void {
    const key = principalKey(principalId);
    const actions = this.exercised.get(key) ?? new Set<string>();
    actions.add(action);
    this.exercised.set(key, actions);
  }
}
