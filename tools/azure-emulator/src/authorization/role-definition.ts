import { badRequest } from '../arm/errors.js';

/**
 * An Azure role definition in the form `az role definition create --role-definition` takes (the repository's
 * `deploy/azure-roles/*.json`): only what authorizes a control-plane request is kept.
 */
export interface RoleDefinition {
  readonly name: string;
  readonly actions: readonly string[];
  readonly notActions: readonly string[];
}

const stringList = (document: Record<string, unknown>, member: string): string[] => {
  const value = document[member] ?? [];
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item === '')) {
    throw badRequest(`The role definition's '${member}' must be a list of non-empty strings; got ${JSON.stringify(value)}.`, 'InvalidRoleDefinition');
  }
  return value as string[];
};

/** Reads a role definition document (`Name`, `Actions`, `NotActions`, as the CLI takes it); refuses any other shape. */
export function parseRoleDefinition(document: unknown): RoleDefinition {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw badRequest('A role definition must be a JSON object with Name, Actions and NotActions.', 'InvalidRoleDefinition');
  }
  const fields = document as Record<string, unknown>;
  const name = fields['Name'];
  if (typeof name !== 'string' || name === '')
    throw badRequest(`The role definition's 'Name' must be a non-empty string; got ${JSON.stringify(name ?? null)}.`, 'InvalidRoleDefinition');
  const actions = stringList(fields, 'Actions');
  if (actions.length === 0) throw badRequest(`The role definition '${name}' grants no action ('Actions' is empty).`, 'InvalidRoleDefinition');
  return { name, actions, notActions: stringList(fields, 'NotActions') };
}

/** Azure's action patterns: case-insensitive, `*` matching any run of characters (slashes included). */
export function actionMatches(pattern: string, action: string): boolean {
  const expression = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${expression}$`, 'i').test(action);
}

/** Whether the role grants the action: matched by one of its Actions and by none of its NotActions. */
export function roleGrants(role: RoleDefinition, action: string): boolean {
  return role.actions.some((pattern) => actionMatches(pattern, action)) && !role.notActions.some((pattern) => actionMatches(pattern, action));
}
