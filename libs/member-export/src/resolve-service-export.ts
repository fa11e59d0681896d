import type { InternalServiceExportSpec } from '@fleet-gateway/api-types';
import { findCondition, formatTime, jsonEqual, type DesiredCondition } from '@fleet-gateway/controller';
import { parseExportWeight } from './export-weight.js';
import {
  CONFLICT_CONDITION,
  EVENT_REASONS,
  INVALID_WEIGHT_ANNOTATION,
  LAST_SEEN_RESOURCE_VERSION_ANNOTATION,
  LAST_SEEN_TIMESTAMP_ANNOTATION,
  PENDING_CONFLICT_RESOLUTION,
  SERVICE_EXPORT_FINALIZER,
  SERVICE_INELIGIBLE,
  SERVICE_IS_VALID,
  SERVICE_NOT_FOUND,
  VALID_CONDITION,
} from './member-names.js';
import type { CachedInternalServiceExport, CachedService, CachedServiceExport } from './member-resources.js';
import { ORIGIN_FIELD_KEYS, type OriginFields, type OriginObservation } from './origin-observation.js';
import { ORIGIN_CONDITION_TYPES, ORIGIN_EVENT_REASONS, ORIGIN_RESTRICTED_CONDITION } from './origin-names.js';
import { isInternalLoadBalancer } from './load-balancer-origin-discovery.js';

/** Everything one reconcile of a ServiceExport key knows, read from the caches (and discovery) beforehand. */
export interface ServiceExportInputs {
  readonly memberCluster: string;
  /** The key: the ServiceExport's (and its Service's) namespace and name. */
  readonly namespace: string;
  readonly name: string;
  /** Undefined when the ServiceExport does not exist (an export left on the hub is then removed). */
  readonly serviceExport: CachedServiceExport | undefined;
  readonly service: CachedService | undefined;
  /** The InternalServiceExport of this name in the member's hub namespace, as cached. */
  readonly hubExport: CachedInternalServiceExport | undefined;
  /** What origin discovery saw; only needed when the Service is exported. */
  readonly origin: OriginObservation | undefined;
  readonly now: Date;
}

export type HubAction =
  | { readonly kind: 'none' }
  /** Unexport: delete exactly this InternalServiceExport (by uid). */
  | { readonly kind: 'delete'; readonly uid: string | undefined }
  /** Export: server-side apply of the spec under the member's field manager. */
  | { readonly kind: 'apply'; readonly spec: InternalServiceExportSpec }
  /** The export is being deleted on the hub (its finalizer): wait until it is gone, then create it anew. */
  | { readonly kind: 'wait'; readonly reason: string };

export interface ExportEvent {
  readonly type: 'Normal' | 'Warning';
  readonly reason: string;
  readonly note: string;
}

export interface ServiceExportResolution {
  readonly hub: HubAction;
  /** `add` goes on before the hub write; `remove` comes off after the hub delete. */
  readonly finalizer: 'add' | 'remove' | 'keep';
  /** The ServiceExport status conditions this agent owns; undefined means no status write (deleted or deleting). */
  readonly conditions: readonly DesiredCondition[] | undefined;
  /** Upstream's metric annotations to write, when they must change. */
  readonly annotations: Readonly<Record<string, string>> | undefined;
  readonly events: readonly ExportEvent[];
  readonly requeue: { readonly afterMs: number; readonly reason: string } | undefined;
}

/** How soon a replaced or deleting export is looked at again (the hub informer's delete event usually comes first). */
export const HUB_WAIT_MS = 2_000;

/**
 * Decides, from cached objects only, what fleet-networking's member serviceexport and internalserviceexport
 * controllers do for one ServiceExport, in upstream's order of checks: deleted or deleting ServiceExport → unexport;
 * Service missing or deleting → `Valid=False/ServiceNotFound` and unexport; ExternalName or headless →
 * `ServiceIneligible` and unexport; an invalid weight annotation → `ServiceExportInvalidWeightAnnotation` with the
 * export left exactly as it is; weight 0 → unexported but `Valid=True`; otherwise the finalizer, `Valid=True`,
 * `Conflict` (the hub's answer copied back, `ServicePendingConflictResolution` until there is one) and the export.
 * An export of the same name for another Service UID (the Service was re-created) is unexported and the key requeued.
 */
export function resolveServiceExport(inputs: ServiceExportInputs): ServiceExportResolution {
  const { serviceExport: se, service, hubExport } = inputs;
  const ours =
    hubExport !== undefined && hubExport.spec?.serviceReference.namespace === inputs.namespace && hubExport.spec.serviceReference.name === inputs.name;
  if (!se || se.metadata.deletionTimestamp !== undefined) {
    const finalized = se?.metadata.finalizers?.includes(SERVICE_EXPORT_FINALIZER) ?? false;
    // Without a ServiceExport upstream's internalserviceexport controller deletes what is left on the hub.
    const hub = (!se || finalized) && ours && hubExport.metadata.deletionTimestamp === undefined ? deleteOf(hubExport) : none;
    return { ...nothing, hub, finalizer: finalized ? 'remove' : 'keep' };
  }

  const ref = `${se.metadata.namespace}/${se.metadata.name}`;
  const generation = se.metadata.generation ?? 0;
  const existing = se.status?.conditions;
  const finalized = se.metadata.finalizers?.includes(SERVICE_EXPORT_FINALIZER) ?? false;
  const unexport = {
    hub: finalized && ours && hubExport.metadata.deletionTimestamp === undefined ? deleteOf(hubExport) : none,
    finalizer: finalized ? ('remove' as const) : ('keep' as const),
  };
  const valid = (status: 'True' | 'False', reason: string, message: string): DesiredCondition => ({
    type: VALID_CONDITION,
    status,
    reason,
    message,
    observedGeneration: generation,
  });
  const keep = (types: readonly string[]) => (existing ?? []).filter((c) => types.includes(c.type)).map(withoutTime);
  const changed = (condition: DesiredCondition) => !sameCondition(findCondition(existing, condition.type), condition);
  const name = se.metadata.name;

  if (!service || service.metadata.deletionTimestamp !== undefined) {
    const condition = valid('False', SERVICE_NOT_FOUND, `service ${ref} is not found`);
    const events = changed(condition) ? [warning(EVENT_REASONS.serviceNotFound, `Service ${name} is not found or in the deleting state`)] : [];
    return { ...nothing, ...unexport, conditions: [condition, ...keep([CONFLICT_CONDITION])], events };
  }
  if (service.spec?.type === 'ExternalName' || service.spec?.clusterIP === 'None') {
    const condition = valid('False', SERVICE_INELIGIBLE, `service ${ref} is not eligible for export`);
    const events = changed(condition)
      ? [warning(EVENT_REASONS.serviceNotEligible, `Service ${name} is not eligible for exporting and please check service spec`)]
      : [];
    return { ...nothing, ...unexport, conditions: [condition, ...keep([CONFLICT_CONDITION])], events };
  }
  const weight = parseExportWeight(se.metadata.annotations);
  if (!weight.ok) {
    // Unexporting would cut the traffic the last valid weight sends: the export stays exactly as it is.
    const condition = valid('False', INVALID_WEIGHT_ANNOTATION, `serviceExport ${ref} has an invalid weight annotation, err = ${weight.error}`);
    const events = changed(condition) ? [warning(EVENT_REASONS.invalidWeight, `ServiceExport ${name} has invalid weight value in the annotation`)] : [];
    return { ...nothing, conditions: [condition, ...keep([CONFLICT_CONDITION, ...ORIGIN_CONDITION_TYPES])], events };
  }
  if (weight.weight === 0) {
    const condition = valid('True', SERVICE_IS_VALID, `exported service ${ref} with 0 weight`);
    const events = changed(condition) ? [normal(EVENT_REASONS.zeroWeight, `Service ${name} weight is set to 0`)] : [];
    return { ...nothing, ...unexport, conditions: [condition, ...keep([CONFLICT_CONDITION])], events };
  }

  const validCondition = valid('True', SERVICE_IS_VALID, `service ${ref} is valid for export`);
  const conflict = conflictCondition(inputs, ours, generation, ref);
  const events: ExportEvent[] = [];
  if (changed(validCondition) || !findCondition(existing, CONFLICT_CONDITION)) {
    events.push(normal(EVENT_REASONS.valid, `Service ${name} is valid for export`));
    events.push(normal(EVENT_REASONS.pendingConflictResolution, `Service ${name} is pending export conflict resolution`));
  }
  if (conflict.status !== 'Unknown' && changed(conflict)) {
    events.push(
      conflict.status === 'True'
        ? warning(EVENT_REASONS.conflictFound, `Service ${name} is in conflict with other exported services`)
        : normal(EVENT_REASONS.noConflictFound, `Service ${name} is exported without conflict`),
    );
  }
  const origin = inputs.origin ?? { fields: {}, conditions: [] };
  const originConditions = origin.conditions.map((c) => ({ ...c, observedGeneration: generation }));
  const conditions = [validCondition, conflict, ...originConditions];
  const { annotations, exportedSince } = lastSeen(se, service, inputs.now);

  if (hubExport && !ours) {
    // Another Service's export has this name (`a-b/c` and `a/b-c` both make `a-b-c`): never take it over.
    const owner = hubExport.spec?.serviceReference.namespacedName ?? 'another Service';
    return {
      ...nothing,
      conditions,
      annotations,
      events,
      requeue: { afterMs: 60_000, reason: `InternalServiceExport ${hubExport.metadata.name} exports ${owner}` },
    };
  }
  if (hubExport?.metadata.deletionTimestamp !== undefined) {
    const reason = 'the previous InternalServiceExport is still being deleted on the hub';
    return { ...nothing, conditions, annotations, events, hub: { kind: 'wait', reason }, requeue: { afterMs: HUB_WAIT_MS, reason } };
  }
  if (hubExport && hubExport.spec?.serviceReference.uid !== service.metadata.uid) {
    // The Service was deleted and re-created: unexport the old one first, then export anew (upstream's requeue).
    return {
      ...nothing,
      conditions,
      annotations,
      events,
      hub: deleteOf(hubExport),
      finalizer: finalized ? 'remove' : 'keep',
      requeue: { afterMs: HUB_WAIT_MS, reason: 'the InternalServiceExport referred to an earlier Service of this name' },
    };
  }
  const spec = exportSpec(inputs, service, weight.weight, exportedSince, origin.fields);
  return {
    hub: { kind: 'apply', spec },
    finalizer: finalized ? 'keep' : 'add',
    conditions,
    annotations,
    events: [...events, ...originEvents(originConditions, existing, origin.fields, hubExport), ...(origin.events ?? [])],
    requeue: origin.recheck,
  };
}

const none: HubAction = { kind: 'none' };
const nothing: ServiceExportResolution = { hub: none, finalizer: 'keep', conditions: undefined, annotations: undefined, events: [], requeue: undefined };

function deleteOf(ise: CachedInternalServiceExport): HubAction {
  return { kind: 'delete', uid: ise.metadata.uid };
}

/**
 * The hub's `Conflict` as upstream's member internalserviceexport controller copies it (the ServiceExport's
 * generation as observedGeneration), from a live export of this very Service; else the one already there (upstream
 * never removes it); else pending.
 */
function conflictCondition(inputs: ServiceExportInputs, ours: boolean, generation: number, ref: string): DesiredCondition {
  const { hubExport, service, serviceExport } = inputs;
  const live = ours && hubExport!.metadata.deletionTimestamp === undefined && hubExport!.spec?.serviceReference.uid === service?.metadata.uid;
  const hub = live ? findCondition(hubExport!.status?.conditions, CONFLICT_CONDITION) : undefined;
  if (hub) return { type: CONFLICT_CONDITION, status: hub.status, reason: hub.reason, message: hub.message, observedGeneration: generation };
  const existing = findCondition(serviceExport?.status?.conditions, CONFLICT_CONDITION);
  if (existing) return withoutTime(existing);
  return {
    type: CONFLICT_CONDITION,
    status: 'Unknown',
    reason: PENDING_CONFLICT_RESOLUTION,
    message: `service ${ref} is pending export conflict resolution`,
    observedGeneration: generation,
  };
}

function exportSpec(
  inputs: ServiceExportInputs,
  service: CachedService,
  weight: number,
  exportedSince: string,
  fields: OriginFields,
): InternalServiceExportSpec {
  const { namespace = '', name, uid = '', resourceVersion = '', generation = 0 } = service.metadata;
  const type = service.spec?.type ?? 'ClusterIP';
  const current = inputs.hubExport?.spec;
  const hasOrigin = Object.values(fields).some((value) => value !== undefined);
  // The observation time moves only when what was observed changed, so a steady state writes nothing; stale values
  // keep the time they were read.
  const keepTime =
    sameFields(fields, current) || (fields.azureDataStale === true && sameFields({ ...fields, azureDataStale: current?.azureDataStale }, current));
  const observedTime = hasOrigin && current?.azureObservedTime && keepTime ? current.azureObservedTime : formatTime(inputs.now);
  return {
    ports: (service.spec?.ports ?? []).map((p) => ({
      ...(p.name ? { name: p.name } : {}),
      ...(p.protocol ? { protocol: p.protocol } : {}),
      ...(p.appProtocol !== undefined ? { appProtocol: p.appProtocol } : {}),
      port: p.port,
      ...(p.targetPort !== undefined ? { targetPort: p.targetPort } : {}),
    })),
    serviceReference: {
      clusterId: inputs.memberCluster,
      apiVersion: 'v1',
      kind: 'Service',
      namespace,
      name,
      resourceVersion,
      generation,
      uid,
      namespacedName: `${namespace}/${name}`,
      exportedSince,
    },
    type,
    weight,
    ...(type === 'LoadBalancer' ? { isInternalLoadBalancer: isInternalLoadBalancer(service) } : {}),
    ...fields,
    ...(hasOrigin ? { azureObservedTime: observedTime } : {}),
  };
}

function sameFields(fields: OriginFields, current: InternalServiceExportSpec | undefined): boolean {
  return current !== undefined && ORIGIN_FIELD_KEYS.every((key) => jsonEqual(fields[key], current[key]));
}

/**
 * Upstream's last-seen annotations (collectAndVerifyLastSeenResourceVersionAndTimestamp): kept while they name the
 * Service's current resourceVersion and a time not in the future, and then their time is `exportedSince`; otherwise
 * rewritten with now.
 */
function lastSeen(se: CachedServiceExport, service: CachedService, now: Date): { annotations: Record<string, string> | undefined; exportedSince: string } {
  const annotations = se.metadata.annotations ?? {};
  const version = annotations[LAST_SEEN_RESOURCE_VERSION_ANNOTATION];
  const seen = annotations[LAST_SEEN_TIMESTAMP_ANNOTATION];
  const seenAt = seen === undefined ? NaN : Date.parse(seen);
  if (version === service.metadata.resourceVersion && seen !== undefined && RFC3339.test(seen) && seenAt <= now.getTime()) {
    return { annotations: undefined, exportedSince: formatTime(new Date(seenAt)) };
  }
  const exportedSince = formatTime(now);
  return {
    annotations: { [LAST_SEEN_RESOURCE_VERSION_ANNOTATION]: service.metadata.resourceVersion ?? '', [LAST_SEEN_TIMESTAMP_ANNOTATION]: exportedSince },
    exportedSince,
  };
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function originEvents(
  conditions: readonly DesiredCondition[],
  existing: readonly DesiredCondition[] | undefined,
  fields: OriginFields,
  hubExport: CachedInternalServiceExport | undefined,
): ExportEvent[] {
  const events: ExportEvent[] = [];
  const restricted = findCondition(conditions, ORIGIN_RESTRICTED_CONDITION);
  if (restricted?.status === 'False' && findCondition(existing, ORIGIN_RESTRICTED_CONDITION)?.status !== 'False') {
    events.push(warning(ORIGIN_EVENT_REASONS.notRestricted, restricted.message));
  }
  if (fields.publicAddress !== undefined && fields.publicAddress !== hubExport?.spec?.publicAddress) {
    events.push(normal(ORIGIN_EVENT_REASONS.published, `Published the public address ${fields.publicAddress} to the hub`));
  }
  return events;
}

function sameCondition(current: DesiredCondition | undefined, desired: DesiredCondition): boolean {
  return current?.status === desired.status && current.reason === desired.reason && current.message === desired.message;
}

function withoutTime(condition: DesiredCondition): DesiredCondition {
  const { lastTransitionTime: _time, ...rest } = condition;
  return rest;
}

const warning = (reason: string, note: string): ExportEvent => ({ type: 'Warning', reason, note });
const normal = (reason: string, note: string): ExportEvent => ({ type: 'Normal', reason, note });
