import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { actionMatches, parseRoleDefinition, roleGrants, type RoleDefinition } from '../authorization/role-definition.js';

/** The repository's Azure roles: one role definition per file, plus `assignments.json` (who gets which, where). */
export const SHIPPED_ROLES_DIR = fileURLToPath(new URL('../../../../deploy/azure-roles/', import.meta.url));
const ASSIGNMENTS_FILE = 'assignments.json';

export interface ShippedRole {
  /** The file's name without `.json`: what `assignments.json` calls the role. */
  readonly key: string;
  /** The file, as `az role definition create --role-definition @<file>` takes it. */
  readonly file: string;
  readonly definition: RoleDefinition;
  readonly description: string;
}

/** One row of `assignments.json`: an identity holds a custom role (`role`, a file's key) or a built-in one. */
export interface ShippedAssignment {
  readonly identity: string;
  /** Where, in words. */
  readonly scope: string;
  readonly role?: string;
  readonly builtInRole?: string;
  /** Why the identity needs it. */
  readonly for: string;
  /** The scope `e2e/azure/setup.sh` grants it on, as a `{placeholder}`; null when e2e grants it nowhere. */
  readonly e2eScope: string | null;
  /** Why e2e does not grant it (with `e2eScope: null`). */
  readonly e2eNotGranted?: string;
}

export function readShippedRoles(): ShippedRole[] {
  return readdirSync(SHIPPED_ROLES_DIR)
    .filter((name) => name.endsWith('.json') && name !== ASSIGNMENTS_FILE)
    .sort()
    .map((name) => {
      const file = path.join(SHIPPED_ROLES_DIR, name);
      const document = JSON.parse(readFileSync(file, 'utf8')) as { Description?: unknown };
      return { key: name.slice(0, -'.json'.length), file, definition: parseRoleDefinition(document), description: String(document.Description ?? '') };
    });
}

export function readShippedAssignments(): ShippedAssignment[] {
  return (JSON.parse(readFileSync(path.join(SHIPPED_ROLES_DIR, ASSIGNMENTS_FILE), 'utf8')) as { assignments: ShippedAssignment[] }).assignments;
}

/** The role a custom-role assignment names; throws for a name no file defines. */
export function shippedRole(key: string): ShippedRole {
  const role = readShippedRoles().find((r) => r.key === key);
  if (role === undefined) throw new Error(`deploy/azure-roles has no ${key}.json (named in ${ASSIGNMENTS_FILE})`);
  return role;
}

/**
 * What a principal exercised (the emulator's record) against the roles it holds: actions none of them grants, and
 * role actions (patterns) nothing exercised. Both empty: the roles are exactly what the code calls.
 */
export function compareWithRoles(exercised: readonly string[], roles: readonly RoleDefinition[]): { notGranted: string[]; neverExercised: string[] } {
  return {
    notGranted: exercised.filter((action) => !roles.some((role) => roleGrants(role, action))),
    neverExercised: roles.flatMap((role) => role.actions).filter((pattern) => !exercised.some((action) => actionMatches(pattern, action))),
  };
}

/**
 * How a run under the emulator's managed identity went against the roles it was assigned: the requests refused (403)
 * and `compareWithRoles` of what it exercised. `{ refused: 0, notGranted: [], neverExercised: [] }`: the roles held
 * and are exactly what the code called.
 */
export function rolesAgainstRun(
  emulator: {
    admin: { requestTotal(filter: { status: number }): number; exercisedActions(principalId: string): string[] };
    managedIdentity: { principalId: string };
  },
  roles: readonly RoleDefinition[],
): { refused: number; notGranted: string[]; neverExercised: string[] } {
  return {
    refused: emulator.admin.requestTotal({ status: 403 }),
    ...compareWithRoles(emulator.admin.exercisedActions(emulator.managedIdentity.principalId), roles),
  };
}
