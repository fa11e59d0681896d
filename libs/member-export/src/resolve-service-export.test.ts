import { describe, expect, it } from 'vitest';
import {
  LAST_SEEN_RESOURCE_VERSION_ANNOTATION as LAST_RV,
  LAST_SEEN_TIMESTAMP_ANNOTATION as LAST_TS,
  SERVICE_EXPORT_FINALIZER,
  WEIGHT_ANNOTATION,
} from './member-names.js';
import type { OriginObservation } from './origin-observation.js';
import { resolveServiceExport, type ServiceExportInputs } from './resolve-service-export.js';
import { EARLIER, hubExportOf, NOW, serviceExportOf, serviceOf } from './test-support/objects.js';

const finalizers = [SERVICE_EXPORT_FINALIZER];
const seen = { [LAST_RV]: '100', [LAST_TS]: EARLIER };
const resolve = (inputs: Partial<ServiceExportInputs>) =>
  resolveServiceExport({
    memberCluster: 'member-1',
    namespace: 'shop',
    name: 'web',
    serviceExport: undefined,
    service: undefined,
    hubExport: undefined,
    origin: undefined,
    now: NOW,
    ...inputs,
  });
const conditionsOf = (r: ReturnType<typeof resolve>) => (r.conditions ?? []).map((c) => `${c.type}=${c.status}/${c.reason}`);
const eventsOf = (r: ReturnType<typeof resolve>) => r.events.map((e) => `${e.type}/${e.reason}`);
const pending = {
  type: 'Conflict',
  status: 'Unknown' as const,
  reason: 'ServicePendingConflictResolution',
  message: 'service shop/web is pending export conflict resolution',
  observedGeneration: 1,
  lastTransitionTime: EARLIER,
};
const validTrue = {
  type: 'Valid',
  status: 'True' as const,
  reason: 'ServiceIsValid',
  message: 'service shop/web is valid for export',
  observedGeneration: 1,
  lastTransitionTime: EARLIER,
};

describe('resolveServiceExport: unexporting', () => {
  it('deletes an export left on the hub when its ServiceExport is gone (upstream’s member ISE controller)', () => {
    expect(resolve({ hubExport: hubExportOf() })).toMatchObject({ hub: { kind: 'delete', uid: 'ise-uid-1' }, finalizer: 'keep', conditions: undefined });
    // One of another Service whose name makes the same export name is never touched.
    expect(resolve({ hubExport: hubExportOf({ namespace: 'shop-web', name: 'x' }) }).hub).toEqual({ kind: 'none' });
    expect(resolve({ hubExport: hubExportOf({ deleting: true }) }).hub).toEqual({ kind: 'none' });
  });

  it('unexports a deleting ServiceExport that holds the finalizer, and then releases it', () => {
    const r = resolve({ serviceExport: serviceExportOf({ finalizers, deleting: true }), service: serviceOf(), hubExport: hubExportOf() });
    expect(r).toMatchObject({ hub: { kind: 'delete' }, finalizer: 'remove', conditions: undefined, events: [] });
    // Without the finalizer the Service was never exported: nothing to do.
    expect(resolve({ serviceExport: serviceExportOf({ deleting: true }), service: serviceOf(), hubExport: hubExportOf() })).toMatchObject({
      hub: { kind: 'none' },
      finalizer: 'keep',
    });
    // Already gone on the hub: only the finalizer.
    expect(resolve({ serviceExport: serviceExportOf({ finalizers, deleting: true }) })).toMatchObject({ hub: { kind: 'none' }, finalizer: 'remove' });
  });

  it('marks the export ServiceNotFound and unexports when the Service is missing or deleting', () => {
    for (const service of [undefined, serviceOf({ deleting: true })]) {
      const r = resolve({ serviceExport: serviceExportOf({ finalizers, conditions: [validTrue, pending] }), service, hubExport: hubExportOf() });
      expect(r.hub).toEqual({ kind: 'delete', uid: 'ise-uid-1' });
      expect(r.finalizer).toBe('remove');
      expect(r.conditions?.[0]).toEqual({
        type: 'Valid',
        status: 'False',
        reason: 'ServiceNotFound',
        message: 'service shop/web is not found',
        observedGeneration: 1,
      });
      // Upstream leaves the last Conflict as it was.
      expect(conditionsOf(r)).toEqual(['Valid=False/ServiceNotFound', 'Conflict=Unknown/ServicePendingConflictResolution']);
      expect(r.events).toEqual([{ type: 'Warning', reason: 'ServiceNotFound', note: 'Service web is not found or in the deleting state' }]);
    }
  });

  it('records the event only when the condition changes', () => {
    const notFound = {
      type: 'Valid',
      status: 'False' as const,
      reason: 'ServiceNotFound',
      message: 'service shop/web is not found',
      observedGeneration: 1,
      lastTransitionTime: EARLIER,
    };
    const r = resolve({ serviceExport: serviceExportOf({ conditions: [notFound] }) });
    expect(r).toMatchObject({ hub: { kind: 'none' }, finalizer: 'keep', events: [] });
  });

  it('finds ExternalName and headless Services ineligible, and unexports them', () => {
    for (const service of [serviceOf({ type: 'ExternalName' }), serviceOf({ clusterIP: 'None' })]) {
      const r = resolve({ serviceExport: serviceExportOf({ finalizers }), service, hubExport: hubExportOf() });
      expect(r.hub.kind).toBe('delete');
      expect(r.conditions?.[0]).toMatchObject({ status: 'False', reason: 'ServiceIneligible', message: 'service shop/web is not eligible for export' });
      expect(r.events).toEqual([
        { type: 'Warning', reason: 'ServiceNotEligible', note: 'Service web is not eligible for exporting and please check service spec' },
      ]);
    }
    // NodePort and LoadBalancer Services are eligible.
    for (const type of ['NodePort', 'LoadBalancer']) expect(resolve({ serviceExport: serviceExportOf(), service: serviceOf({ type }) }).hub.kind).toBe('apply');
  });

  it('unexports on weight 0 and stays Valid', () => {
    const r = resolve({
      serviceExport: serviceExportOf({ finalizers, annotations: { [WEIGHT_ANNOTATION]: '0' } }),
      service: serviceOf(),
      hubExport: hubExportOf(),
    });
    expect(r).toMatchObject({ hub: { kind: 'delete' }, finalizer: 'remove' });
    expect(r.conditions?.[0]).toMatchObject({ status: 'True', reason: 'ServiceIsValid', message: 'exported service shop/web with 0 weight' });
    expect(r.events).toEqual([{ type: 'Normal', reason: 'Service', note: 'Service web weight is set to 0' }]);
  });
});

describe('resolveServiceExport: an invalid weight keeps the export', () => {
  it('changes nothing on the hub or the finalizer and says why in Valid', () => {
    const origin = {
      type: 'networking.fleet.azure.com/OriginPublished',
      status: 'True' as const,
      reason: 'PublicAddressPublished',
      message: 'm',
      lastTransitionTime: EARLIER,
    };
    const se = serviceExportOf({ finalizers, annotations: { [WEIGHT_ANNOTATION]: '3837' }, conditions: [validTrue, pending, origin] });
    const r = resolve({ serviceExport: se, service: serviceOf(), hubExport: hubExportOf() });
    expect(r.hub).toEqual({ kind: 'none' });
    expect(r.finalizer).toBe('keep');
    expect(r.conditions?.[0]).toEqual({
      type: 'Valid',
      status: 'False',
      reason: 'ServiceExportInvalidWeightAnnotation',
      message: 'serviceExport shop/web has an invalid weight annotation, err = the weight annotation is not in the range [0, 1000]: 3837',
      observedGeneration: 1,
    });
    expect(conditionsOf(r).slice(1)).toEqual([
      'Conflict=Unknown/ServicePendingConflictResolution',
      'networking.fleet.azure.com/OriginPublished=True/PublicAddressPublished',
    ]);
    expect(r.events).toEqual([
      { type: 'Warning', reason: 'ServiceExportInvalidWeightAnnotation', note: 'ServiceExport web has invalid weight value in the annotation' },
    ]);
  });
});

describe('resolveServiceExport: exporting', () => {
  it('adds the finalizer, marks Valid, Conflict pending, writes the last-seen annotations and the export', () => {
    const r = resolve({ serviceExport: serviceExportOf({ annotations: { [WEIGHT_ANNOTATION]: '560' } }), service: serviceOf() });
    expect(r.finalizer).toBe('add');
    expect(r.conditions).toEqual([
      { type: 'Valid', status: 'True', reason: 'ServiceIsValid', message: 'service shop/web is valid for export', observedGeneration: 1 },
      {
        type: 'Conflict',
        status: 'Unknown',
        reason: 'ServicePendingConflictResolution',
        message: 'service shop/web is pending export conflict resolution',
        observedGeneration: 1,
      },
    ]);
    expect(eventsOf(r)).toEqual(['Normal/ValidServiceExport', 'Normal/PendingExportConflictResolution']);
    expect(r.annotations).toEqual({ [LAST_RV]: '100', [LAST_TS]: '2030-01-01T00:00:10Z' });
    expect(r.hub).toEqual({
      kind: 'apply',
      spec: {
        ports: [{ name: 'http', protocol: 'TCP', port: 80, targetPort: 8080 }],
        serviceReference: {
          clusterId: 'member-1',
          apiVersion: 'v1',
          kind: 'Service',
          namespace: 'shop',
          name: 'web',
          resourceVersion: '100',
          generation: 0,
          uid: 'svc-uid-1',
          namespacedName: 'shop/web',
          exportedSince: '2030-01-01T00:00:10Z',
        },
        type: 'ClusterIP',
        weight: 560,
      },
    });
    expect(r.requeue).toBeUndefined();
  });

  it('in a steady state keeps the finalizer and the last-seen time, and records no event', () => {
    const se = serviceExportOf({ finalizers, annotations: seen, conditions: [validTrue, pending] });
    const r = resolve({ serviceExport: se, service: serviceOf(), hubExport: hubExportOf() });
    expect(r).toMatchObject({ finalizer: 'keep', annotations: undefined, events: [] });
    expect(r.hub.kind === 'apply' && r.hub.spec.serviceReference.exportedSince).toBe(EARLIER);
    expect(r.hub.kind === 'apply' && r.hub.spec.weight).toBe(1);
  });

  it('renews the last-seen annotations when the Service changed or they are unusable', () => {
    for (const annotations of [
      { ...seen, [LAST_RV]: '99' },
      { [LAST_RV]: '100' },
      { ...seen, [LAST_TS]: 'yesterday' },
      { ...seen, [LAST_TS]: '2031-01-01T00:00:00Z' },
    ]) {
      const r = resolve({ serviceExport: serviceExportOf({ finalizers, annotations }), service: serviceOf() });
      expect(r.annotations).toEqual({ [LAST_RV]: '100', [LAST_TS]: '2030-01-01T00:00:10Z' });
    }
  });

  it('copies the hub’s Conflict back with the ServiceExport’s generation, with upstream’s events', () => {
    const se = serviceExportOf({ finalizers, annotations: seen, conditions: [validTrue, pending], generation: 3 });
    const conflicted = resolve({ serviceExport: se, service: serviceOf(), hubExport: hubExportOf({ conflict: 'True' }) });
    expect(conflicted.conditions?.[1]).toEqual({
      type: 'Conflict',
      status: 'True',
      reason: 'ConflictFound',
      message: 'service shop/web is in conflict with other exported services',
      observedGeneration: 3,
    });
    expect(conflicted.events).toContainEqual({
      type: 'Warning',
      reason: 'ServiceExportConflictFound',
      note: 'Service web is in conflict with other exported services',
    });
    const free = resolve({ serviceExport: se, service: serviceOf(), hubExport: hubExportOf({ conflict: 'False' }) });
    expect(free.conditions?.[1]).toMatchObject({ status: 'False', reason: 'NoConflictFound' });
    expect(free.events).toContainEqual({ type: 'Normal', reason: 'NoServiceExportConflictFound', note: 'Service web is exported without conflict' });
    // The hub’s answer about an earlier Service of this name is not copied.
    const stale = resolve({ serviceExport: se, service: serviceOf({ uid: 'svc-uid-2' }), hubExport: hubExportOf({ conflict: 'True' }) });
    expect(stale.conditions?.[1]).toMatchObject({ status: 'Unknown', reason: 'ServicePendingConflictResolution' });
  });

  it('unexports an export of an earlier Service of this name (UID mismatch) and comes back to export anew', () => {
    const r = resolve({
      serviceExport: serviceExportOf({ finalizers, annotations: seen }),
      service: serviceOf({ uid: 'svc-uid-2' }),
      hubExport: hubExportOf(),
    });
    expect(r.hub).toEqual({ kind: 'delete', uid: 'ise-uid-1' });
    expect(r.finalizer).toBe('remove');
    expect(r.requeue).toEqual({ afterMs: 2000, reason: 'the InternalServiceExport referred to an earlier Service of this name' });
    expect(r.conditions?.[0]).toMatchObject({ status: 'True', reason: 'ServiceIsValid' });
  });

  it('waits while the previous export is being deleted on the hub', () => {
    const r = resolve({ serviceExport: serviceExportOf({ annotations: seen }), service: serviceOf(), hubExport: hubExportOf({ deleting: true }) });
    expect(r.hub.kind).toBe('wait');
    expect(r.finalizer).toBe('keep');
    expect(r.requeue?.afterMs).toBe(2000);
  });

  it('never takes over an export of the same name that belongs to another Service', () => {
    const origin: OriginObservation = { fields: { publicAddress: '20.1.2.3' }, conditions: [] };
    const r = resolve({
      serviceExport: serviceExportOf({ annotations: seen }),
      service: serviceOf(),
      hubExport: hubExportOf({ namespace: 'shop-web', name: 'x' }),
      origin,
    });
    expect(r.hub).toEqual({ kind: 'none' });
    expect(eventsOf(r)).not.toContain('Normal/PublicAddressPublished');
    expect(r.finalizer).toBe('keep');
    expect(r.requeue?.reason).toBe('InternalServiceExport shop-web exports shop-web/x');
  });
});

describe('resolveServiceExport: the origin', () => {
  const published = (address: string): OriginObservation => ({
    fields: { publicAddress: address },
    conditions: [{ type: 'networking.fleet.azure.com/OriginPublished', status: 'True', reason: 'PublicAddressPublished', message: `published ${address}` }],
  });
  const lb = serviceOf({ type: 'LoadBalancer', ingress: [{ ip: '20.1.2.3' }] });
  const se = serviceExportOf({ finalizers, annotations: seen, conditions: [validTrue, pending] });

  it('publishes the address with the time it was observed, and the conditions with the generation', () => {
    const r = resolve({ serviceExport: se, service: lb, hubExport: hubExportOf(), origin: published('20.1.2.3') });
    expect(r.hub.kind === 'apply' && r.hub.spec).toMatchObject({
      type: 'LoadBalancer',
      isInternalLoadBalancer: false,
      publicAddress: '20.1.2.3',
      azureObservedTime: '2030-01-01T00:00:10Z',
    });
    expect(r.conditions?.[2]).toMatchObject({ type: 'networking.fleet.azure.com/OriginPublished', status: 'True', observedGeneration: 1 });
    expect(r.events).toEqual([{ type: 'Normal', reason: 'PublicAddressPublished', note: 'Published the public address 20.1.2.3 to the hub' }]);
  });

  it('keeps the observed time while the address is unchanged, so a steady state writes nothing', () => {
    const hubExport = hubExportOf({ publicAddress: '20.1.2.3', azureObservedTime: EARLIER });
    const same = resolve({ serviceExport: se, service: lb, hubExport, origin: published('20.1.2.3') });
    expect(same.hub.kind === 'apply' && same.hub.spec.azureObservedTime).toBe(EARLIER);
    expect(same.events).toEqual([]);
    const moved = resolve({ serviceExport: se, service: lb, hubExport, origin: published('20.9.9.9') });
    expect(moved.hub.kind === 'apply' && moved.hub.spec.azureObservedTime).toBe('2030-01-01T00:00:10Z');
  });

  it('asks to look again while discovery waits, and says so once as a warning when the LB is open', () => {
    const waiting: OriginObservation = {
      fields: {},
      conditions: [{ type: 'networking.fleet.azure.com/OriginRestrictedToFrontDoor', status: 'False', reason: 'NotRestrictedToFrontDoor', message: 'open' }],
      recheck: { afterMs: 15_000, reason: 'no address' },
    };
    const r = resolve({ serviceExport: se, service: lb, hubExport: hubExportOf(), origin: waiting });
    expect(r.requeue).toEqual({ afterMs: 15_000, reason: 'no address' });
    expect(r.hub.kind === 'apply' && 'publicAddress' in r.hub.spec).toBe(false);
    expect(r.hub.kind === 'apply' && 'azureObservedTime' in r.hub.spec).toBe(false);
    expect(r.events).toEqual([{ type: 'Warning', reason: 'OriginNotRestrictedToFrontDoor', note: 'open' }]);
    const warned = serviceExportOf({
      finalizers,
      annotations: seen,
      conditions: [validTrue, pending, { ...waiting.conditions[0]!, lastTransitionTime: EARLIER }],
    });
    expect(resolve({ serviceExport: warned, service: lb, hubExport: hubExportOf(), origin: waiting }).events).toEqual([]);
  });

  it('stale values keep the time they were read; discovery’s events are recorded after the export’s', () => {
    const internal = serviceOf({ type: 'LoadBalancer', ingress: [{ ip: '10.0.0.7' }] });
    const privateLink = { internalLoadBalancerIP: '10.0.0.7', privateLinkService: { resourceID: '/pls', location: 'eastus' } };
    const hubExport = hubExportOf({ origin: privateLink, azureObservedTime: EARLIER });
    const stale = resolve({ serviceExport: se, service: internal, hubExport, origin: { fields: { ...privateLink, azureDataStale: true }, conditions: [] } });
    expect(stale.hub.kind === 'apply' && stale.hub.spec).toMatchObject({ azureDataStale: true, azureObservedTime: EARLIER });
    const approved = { type: 'Normal' as const, reason: 'PrivateLinkConnectionApproved', note: 'approved afd-1' };
    const fresh = resolve({
      serviceExport: se,
      service: internal,
      hubExport,
      origin: { fields: { ...privateLink, privateLinkService: { resourceID: '/pls-2', location: 'eastus' } }, conditions: [], events: [approved] },
    });
    expect(fresh.hub.kind === 'apply' && fresh.hub.spec.azureObservedTime).toBe('2030-01-01T00:00:10Z');
    expect(fresh.hub.kind === 'apply' && 'azureDataStale' in fresh.hub.spec).toBe(false);
    expect(fresh.events).toEqual([approved]);
  });

  it('an invalid weight keeps every origin condition as it is, Private Link ones included', () => {
    const kept = ['networking.fleet.azure.com/AzureDataCurrent', 'networking.fleet.azure.com/PrivateLinkConnectionsApproved'].map((type) => ({
      type,
      status: 'False' as const,
      reason: 'Something',
      message: 'as it was',
      observedGeneration: 1,
      lastTransitionTime: EARLIER,
    }));
    const invalid = serviceExportOf({ finalizers, annotations: { ...seen, [WEIGHT_ANNOTATION]: 'heavy' }, conditions: [validTrue, pending, ...kept] });
    const r = resolve({ serviceExport: invalid, service: lb, hubExport: hubExportOf(), origin: published('20.1.2.3') });
    expect(conditionsOf(r)).toEqual([
      'Valid=False/ServiceExportInvalidWeightAnnotation',
      'Conflict=Unknown/ServicePendingConflictResolution',
      'networking.fleet.azure.com/AzureDataCurrent=False/Something',
      'networking.fleet.azure.com/PrivateLinkConnectionsApproved=False/Something',
    ]);
  });

  it('drops the origin conditions when the Service is unexported', () => {
    const r = resolve({
      serviceExport: serviceExportOf({ finalizers, annotations: { [WEIGHT_ANNOTATION]: '0' } }),
      service: lb,
      origin: published('20.1.2.3'),
    });
    expect(conditionsOf(r)).toEqual(['Valid=True/ServiceIsValid']);
  });
});
