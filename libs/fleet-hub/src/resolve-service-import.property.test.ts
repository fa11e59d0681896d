import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTERNAL_SERVICE_EXPORT_FINALIZER } from './fleet-names.js';
import { resolveServiceImport } from './resolve-service-import.js';
import { samePorts } from './service-ports.js';
import { exportOf, serviceImportOf } from './test-support/exports.js';

const port = fc.record({ port: fc.constantFrom(80, 443), protocol: fc.constantFrom('TCP' as const, 'UDP' as const) });
const exportArb = fc.record({
  cluster: fc.constantFrom('member-1', 'member-2', 'member-3', 'member-4'),
  ports: fc.array(port, { minLength: 1, maxLength: 2 }),
  created: fc.constantFrom('2030-01-01T00:00:01Z', '2030-01-01T00:00:02Z', '2030-01-01T00:00:03Z'),
  deleting: fc.boolean(),
});
const exportsArb = fc
  .uniqueArray(exportArb, { selector: (e) => e.cluster, maxLength: 4 })
  .map((list) => list.map((e) => exportOf({ ...e, finalizers: [INTERNAL_SERVICE_EXPORT_FINALIZER] })));

describe('resolveServiceImport properties', () => {
  it('lists exactly the live exports with the resolved ports, is independent of cache order, and is a fixed point', () => {
    fc.assert(
      fc.property(exportsArb, fc.infiniteStream(fc.nat()), (exports, random) => {
        const first = resolveServiceImport({ serviceImport: undefined, exports });
        const shuffled = [...exports].sort(() => (random.next().value % 3) - 1);
        expect(resolveServiceImport({ serviceImport: undefined, exports: shuffled })).toEqual(first);
        if (first.plan.kind !== 'resolved') {
          expect(exports.every((e) => e.metadata.deletionTimestamp)).toBe(true);
          return;
        }
        const { status } = first.plan;
        for (const verdict of first.verdicts) {
          expect(verdict.conflicted).toBe(!samePorts(verdict.export.spec!.ports, status.ports));
          expect(status.clusters.some((c) => c.cluster === verdict.export.spec!.serviceReference.clusterId)).toBe(!verdict.conflicted);
        }
        // Written back, the status resolves to itself: a steady state writes nothing.
        const again = resolveServiceImport({
          serviceImport: serviceImportOf({ ...status, ports: [...status.ports], clusters: [...status.clusters] }),
          exports,
        });
        expect(again.plan).toEqual({ ...first.plan, create: false, newlyResolved: false });
        expect(again.verdicts).toEqual(first.verdicts);
      }),
      { seed: 12, numRuns: 300 },
    );
  });
});
