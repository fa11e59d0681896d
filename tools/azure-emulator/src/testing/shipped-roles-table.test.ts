import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readShippedAssignments, readShippedRoles } from './shipped-roles.js';
import { renderAzureRolesTable } from './shipped-roles-table.js';

describe('the shipped Azure roles', () => {
  it('name a role file for every custom assignment, use every role file, and refuse an unknown role', () => {
    const roles = readShippedRoles();
    const assignments = readShippedAssignments();
    for (const a of assignments)
      expect(a.role === undefined, `${a.identity} on ${a.scope}: exactly one of role and builtInRole`).toBe(a.builtInRole !== undefined);
    expect(roles.map((r) => r.key).filter((key) => !assignments.some((a) => a.role === key))).toEqual([]);
    for (const role of roles)
      expect(JSON.parse(readFileSync(role.file, 'utf8'))).toMatchObject({
        AssignableScopes: ['/subscriptions/{subscriptionId}'],
        DataActions: [],
        NotActions: [],
      });
    expect(() => renderAzureRolesTable('', [{ identity: 'hub', scope: 'x', role: 'nope', for: 'y', e2eScope: null }], roles)).toThrow(
      'names a role no file defines: nope',
    );
  });

  it('link each custom role to its file from where the document is', () => {
    expect(renderAzureRolesTable('../')).toContain('(../deploy/azure-roles/hub-gateway-front-door.json)');
  });
});
