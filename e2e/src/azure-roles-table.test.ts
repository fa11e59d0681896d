import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spliceGeneratedSection } from '@fleet-gateway/annotations';
import { readShippedAssignments, readShippedRoles } from '@fleet-gateway/azure-emulator';
import { describe, expect, it } from 'vitest';
import { renderAzureRolesTable } from './azure-roles-table.js';
import { REPO_ROOT } from './e2e-state.js';

const readmePath = path.join(REPO_ROOT, 'README.md');

describe('the README’s Azure roles', () => {
  it('are the ones rendered from deploy/azure-roles (UPDATE_GOLDEN=1 rewrites them)', () => {
    const expected = spliceGeneratedSection(readFileSync(readmePath, 'utf8'), 'azure-roles', renderAzureRolesTable());
    if (process.env['UPDATE_GOLDEN'] === '1') writeFileSync(readmePath, expected);
    expect(readFileSync(readmePath, 'utf8')).toBe(expected);
  });

  it('name a role file for every custom assignment, use every role file, and refuse an unknown role', () => {
    const roles = readShippedRoles();
    const assignments = readShippedAssignments();
    for (const a of assignments) expect(a.role === undefined, `${a.identity} on ${a.scope}: exactly one of role and builtInRole`).toBe(a.builtInRole !== undefined);
    expect(roles.map((r) => r.key).filter((key) => !assignments.some((a) => a.role === key))).toEqual([]);
    for (const role of roles) expect(JSON.parse(readFileSync(role.file, 'utf8'))).toMatchObject({ AssignableScopes: ['/subscriptions/{subscriptionId}'], DataActions: [], NotActions: [] });
    expect(() => renderAzureRolesTable([{ identity: 'hub', scope: 'x', role: 'nope', for: 'y', e2eScope: null }], roles)).toThrow('names a role no file defines: nope');
  });
});
