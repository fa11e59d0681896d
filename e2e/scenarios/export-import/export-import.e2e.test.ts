import { objectPath, type Condition } from '@fleet-gateway/controller';
import { RESOURCES } from '@fleet-gateway/api-types';
import { expect, it } from 'vitest';
import { apply, applyOnMember, conditionOf, read, until } from '../../src/kube-helpers.js';
import { scenario } from '../../src/scenario.js';
import { E2E_MEMBERS } from '../../src/system-under-test.js';

type ServiceImport = { status?: { clusters?: { cluster: string }[]; ports?: { port: number }[] } };
type ServiceExport = { status?: { conditions?: Condition[] } };
const importPath = objectPath(RESOURCES.ServiceImport, 'api', 'e2e-export');
const exportPath = objectPath(RESOURCES.ServiceExport, 'api', 'e2e-export');

scenario('export and import without Front Door', [], (system) => {
  it('a Service exported from both members is imported on the hub with both clusters; unexporting removes a cluster, then the import', async () => {
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    for (const member of E2E_MEMBERS) await applyOnMember(system, member, new URL('member.yaml', import.meta.url));
    const imported = await until(
      () => read<ServiceImport>(system.hub, importPath),
      (si) => (si?.status?.clusters ?? []).length === 2,
    );
    expect(imported?.status?.clusters?.map((c) => c.cluster).sort()).toEqual(['member-1', 'member-2']);
    expect(imported?.status?.ports?.map((p) => p.port)).toEqual([8080]);
    for (const member of E2E_MEMBERS) {
      const se = await until(
        () => read<ServiceExport>(system.members[member], exportPath),
        (s) => conditionOf(s, 'Conflict')?.reason === 'NoConflictFound',
      );
      expect(conditionOf(se, 'Valid')).toMatchObject({ status: 'True', reason: 'ServiceIsValid' });
      expect(conditionOf(se, 'Conflict')).toMatchObject({ status: 'False', reason: 'NoConflictFound' });
    }
    await system.members['member-2'].delete(exportPath);
    const one = await until(
      () => read<ServiceImport>(system.hub, importPath),
      (si) => (si?.status?.clusters ?? []).length === 1,
    );
    expect(one?.status?.clusters?.map((c) => c.cluster)).toEqual(['member-1']);
    await system.members['member-1'].delete(exportPath);
    expect(
      await until(
        () => read<ServiceImport>(system.hub, importPath),
        (si) => si === undefined,
      ),
    ).toBeUndefined();
  });
});
