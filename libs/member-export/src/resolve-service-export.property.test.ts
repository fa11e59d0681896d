import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExportWeight } from './export-weight.js';
import { SERVICE_EXPORT_FINALIZER, WEIGHT_ANNOTATION } from './member-names.js';
import type { CachedInternalServiceExport, CachedServiceExport } from './member-resources.js';
import { resolveServiceExport, type ServiceExportInputs, type ServiceExportResolution } from './resolve-service-export.js';
import { EARLIER, hubExportOf, NOW, serviceExportOf, serviceOf } from './test-support/objects.js';

const weightArb = fc.oneof(fc.constant(undefined), fc.integer({ min: -5, max: 1005 }).map(String), fc.string({ maxLength: 6 }));
const serviceArb = fc.constantFrom(
  undefined,
  serviceOf(),
  serviceOf({ type: 'LoadBalancer', ingress: [{ ip: '20.1.2.3' }] }),
  serviceOf({ clusterIP: 'None' }),
  serviceOf({ type: 'ExternalName' }),
  serviceOf({ deleting: true }),
  serviceOf({ uid: 'svc-uid-2' }),
);
const hubArb = fc.constantFrom(
  undefined,
  hubExportOf(),
  hubExportOf({ conflict: 'True' }),
  hubExportOf({ deleting: true }),
  hubExportOf({ serviceUid: 'svc-uid-2', conflict: 'False' }),
);
const inputsArb = fc
  .record({ weight: weightArb, finalized: fc.boolean(), service: serviceArb, hubExport: hubArb })
  .map(({ weight, finalized, service, hubExport }) => ({
    memberCluster: 'member-1',
    namespace: 'shop',
    name: 'web',
    serviceExport: serviceExportOf({
      ...(weight === undefined ? {} : { annotations: { [WEIGHT_ANNOTATION]: weight } }),
      ...(finalized ? { finalizers: [SERVICE_EXPORT_FINALIZER] } : {}),
    }),
    service,
    hubExport,
    origin: undefined,
    now: NOW,
  }));

/** The objects as they are after the writes a resolution asked for (what the caches show next). */
function afterWrites(inputs: ServiceExportInputs, r: ServiceExportResolution): ServiceExportInputs {
  const se = inputs.serviceExport!;
  const finalizers = r.finalizer === 'add' ? [SERVICE_EXPORT_FINALIZER] : r.finalizer === 'remove' ? [] : (se.metadata.finalizers ?? []);
  const serviceExport: CachedServiceExport = {
    ...se,
    metadata: { ...se.metadata, finalizers, annotations: { ...se.metadata.annotations, ...r.annotations } },
    status: { conditions: (r.conditions ?? se.status?.conditions ?? []).map((c) => ({ ...c, lastTransitionTime: EARLIER })) },
  };
  let hubExport: CachedInternalServiceExport | undefined = inputs.hubExport;
  if (r.hub.kind === 'delete') hubExport = undefined;
  if (r.hub.kind === 'apply') hubExport = { ...(hubExport ?? hubExportOf()), spec: r.hub.spec };
  return { ...inputs, serviceExport, hubExport };
}

describe('resolveServiceExport properties', () => {
  it('exports only eligible Services with a valid non-zero weight, holds an invalid weight, and reaches a fixed point', () => {
    fc.assert(
      fc.property(inputsArb, (inputs) => {
        const weight = parseExportWeight(inputs.serviceExport.metadata.annotations);
        const eligible =
          inputs.service !== undefined &&
          !inputs.service.metadata.deletionTimestamp &&
          inputs.service.spec?.type !== 'ExternalName' &&
          inputs.service.spec?.clusterIP !== 'None';
        const r = resolveServiceExport(inputs);
        if (r.hub.kind === 'apply') {
          expect(eligible && weight.ok && weight.weight > 0).toBe(true);
          expect(r.hub.spec.weight).toBe(weight.ok ? weight.weight : NaN);
          expect(r.hub.spec.serviceReference.uid).toBe(inputs.service!.metadata.uid);
        }
        // The finalizer goes on only together with an export, never with an unexport.
        if (r.finalizer === 'add') expect(r.hub.kind).toBe('apply');
        if (r.hub.kind === 'delete') expect(r.finalizer).not.toBe('add');
        if (eligible && !weight.ok) {
          expect(r.hub).toEqual({ kind: 'none' });
          expect(r.finalizer).toBe('keep');
        }
        // Once its writes landed, a few reconciles settle; then nothing changes, nothing is recorded, and it is a fixed point.
        let state: ServiceExportInputs = inputs;
        let settled = r;
        for (
          let step = 0;
          step < 4 && (settled.requeue || settled.finalizer !== 'keep' || settled.annotations || settled.events.length > 0 || settled.hub.kind === 'delete');
          step++
        ) {
          state = afterWrites(state, settled);
          settled = resolveServiceExport(state);
        }
        expect(settled.finalizer).toBe('keep');
        expect(settled.annotations).toBeUndefined();
        expect(settled.events).toEqual([]);
        expect(resolveServiceExport(afterWrites(state, settled))).toEqual(settled);
      }),
      { seed: 13, numRuns: 300 },
    );
  });
});
