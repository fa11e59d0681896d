import { readShippedAssignments, readShippedRoles, type ShippedAssignment, type ShippedRole } from './shipped-roles.js';

const cell = (text: string): string => text.replaceAll('|', '\\|');

function roleCell(assignment: ShippedAssignment, roles: readonly ShippedRole[], linkBase: string): string {
  if (assignment.builtInRole !== undefined) return `${assignment.builtInRole} (built-in)`;
  const role = roles.find((r) => r.key === assignment.role);
  if (role === undefined) throw new Error(`deploy/azure-roles/assignments.json names a role no file defines: ${assignment.role}`);
  return `${role.definition.name} ([\`${role.key}.json\`](${linkBase}deploy/azure-roles/${role.key}.json))`;
}

/**
 * The docs' Azure roles section, rendered from deploy/azure-roles: who holds which role where and why (with the
 * scope e2e/azure/setup.sh grants it on), then each custom role's actions. Pure over the two inputs; `linkBase` is
 * the way from the document to the repository's root (`../` from docs/).
 */
export function renderAzureRolesTable(
  linkBase = '',
  assignments: readonly ShippedAssignment[] = readShippedAssignments(),
  roles: readonly ShippedRole[] = readShippedRoles(),
): string {
  const rows = assignments.map((a) => {
    const e2e = a.e2eScope === null ? `— (${a.e2eNotGranted ?? 'not granted by e2e'})` : `\`${a.e2eScope}\``;
    return `| ${cell(a.identity)} | ${cell(a.scope)} | ${roleCell(a, roles, linkBase)} | ${cell(a.for)} | ${e2e} |`;
  });
  const used = roles.filter((role) => assignments.some((a) => a.role === role.key));
  const actions = used.map((role) => `| ${role.definition.name} | ${role.definition.actions.map((action) => `\`${action}\``).join(', ')} |`);
  return [
    '| identity | scope | role | for | e2e/azure grants it on |',
    '|---|---|---|---|---|',
    ...rows,
    '',
    '| custom role | actions (no data actions, no NotActions) |',
    '|---|---|',
    ...actions,
  ].join('\n');
}
