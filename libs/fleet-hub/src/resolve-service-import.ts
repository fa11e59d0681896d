import { RESERVED_PREFIX } from '@fleet-gateway/annotations';
import type { InternalServiceExport, ServiceImport, ServiceImportStatus } from '@fleet-gateway/api-types';
import { hasFinalizer, type KubeObject } from '@fleet-gateway/controller';
import { compareText as compare } from '@fleet-gateway/api-types';
import { CLUSTER_SET_IP, INTERNAL_SERVICE_EXPORT_FINALIZER } from './fleet-names.js';
import { samePorts, type ServicePort } from './service-ports.js';

/** What the hub knows about one exported Service: its ServiceImport (if any) and every export that names it. */
export interface ServiceImportInputs<E extends InternalServiceExport = InternalServiceExport> {
  readonly serviceImport: ServiceImport | undefined;
  /** The InternalServiceExports whose serviceReference names the ServiceImport's namespace and name. */
  readonly exports: readonly E[];
}

/** The ServiceImport status fleet-networking's hub writes: resolved ports, the clusters that match them, the type. */
export interface ResolvedImportStatus {
  readonly ports: readonly ServicePort[];
  readonly clusters: readonly { readonly cluster: string }[];
  readonly type: typeof CLUSTER_SET_IP;
}

export type ServiceImportPlan =
  /** Nothing is exported and there is no ServiceImport: nothing to do. */
  | { readonly kind: 'absent' }
  /** Something is exported: the ServiceImport (created first when `create`) carries `status`. */
  | {
      readonly kind: 'resolved';
      readonly status: ResolvedImportStatus;
      readonly create: boolean;
      /** The ports were picked now (upstream resolves only while no cluster is listed), not kept from before. */
      readonly newlyResolved: boolean;
    }
  /** Nothing is exported any more: upstream deletes the ServiceImport. */
  | { readonly kind: 'delete' }
  /** Nothing is exported, but the ServiceImport carries `afd-` annotations: keep it, status cleared (our deviation). */
  | { readonly kind: 'keep-cleared'; readonly alreadyClear: boolean };

export interface ExportVerdict<E extends InternalServiceExport = InternalServiceExport> {
  readonly export: E;
  /** Its ports differ from the resolved ones: `Conflict=True`, and its cluster is not in the ServiceImport. */
  readonly conflicted: boolean;
}

export interface ServiceImportResolution<E extends InternalServiceExport = InternalServiceExport> {
  readonly plan: ServiceImportPlan;
  /** Every live (not deleting) export, oldest first, with its verdict. */
  readonly verdicts: readonly ExportVerdict<E>[];
  /** Live exports that do not carry the finalizer yet; it goes on before they count (upstream's order). */
  readonly needFinalizer: readonly E[];
  /** Deleting exports that still carry the finalizer: released once the ServiceImport no longer lists them. */
  readonly releasable: readonly E[];
}

/**
 * Decides, from cached objects only, everything fleet-networking's two hub controllers (serviceimport and
 * internalserviceexport) converge to for one ServiceImport, in one level-based pass:
 * - the resolved ports stay those already in `status.ports` while a cluster stays listed: one whose live export
 *   still has exactly them, or one that no export here speaks for (upstream removes a cluster only when that
 *   cluster's own export changes or goes, so such a cluster — written by someone else, or left by a force-deleted
 *   export — stays). Otherwise they are taken from the oldest live export: upstream takes the first one its cache
 *   lists, in no defined order; oldest by creation, then by namespace and name, makes the pick reproducible and
 *   lets the earlier export win;
 * - `status.clusters` keeps the listed clusters that stay, in their order, then appends the clusters
 *   (`spec.serviceReference.clusterId`) of the other live exports with exactly those ports, each once, as
 *   upstream's internalserviceexport controller appends; the exports with other ports are conflicted and left out;
 * - with no cluster left, the ServiceImport is deleted — or, when it carries an annotation under
 *   `networking.fleet.azure.com/afd-`, kept with its status cleared so the user's configuration survives an
 *   unexport and re-export.
 */
export function resolveServiceImport<E extends InternalServiceExport>(inputs: ServiceImportInputs<E>): ServiceImportResolution<E> {
  const exports = [...inputs.exports].sort(olderFirst);
  const live = exports.filter((e) => e.metadata.deletionTimestamp === undefined && e.spec);
  const needFinalizer = live.filter((e) => !hasFinalizer(e as KubeObject, INTERNAL_SERVICE_EXPORT_FINALIZER));
  const releasable = exports.filter((e) => e.metadata.deletionTimestamp !== undefined && hasFinalizer(e as KubeObject, INTERNAL_SERVICE_EXPORT_FINALIZER));
  const current = inputs.serviceImport;

  const listed = current?.status?.clusters?.map((c) => c.cluster) ?? [];
  const spokenFor = new Set(exports.map((e) => e.spec?.serviceReference.clusterId));
  const foreign = listed.filter((cluster) => !spokenFor.has(cluster));
  const kept = current?.status?.ports ?? [];
  const keepPorts = listed.length > 0 && kept.length > 0 && (foreign.length > 0 || live.some((e) => samePorts(e.spec!.ports, kept)));
  const first = live[0];
  if (!keepPorts && !first) return { plan: planWithoutExports(current), verdicts: [], needFinalizer, releasable };

  const ports = keepPorts ? kept : first!.spec!.ports;
  const verdicts = live.map((e) => ({ export: e, conflicted: !samePorts(e.spec!.ports, ports) }));
  const matching = new Set(verdicts.filter((v) => !v.conflicted).map((v) => v.export.spec!.serviceReference.clusterId));
  const staying = keepPorts ? listed.filter((cluster) => matching.has(cluster) || foreign.includes(cluster)) : [];
  const clusters = [...new Set([...staying, ...matching])];
  const status: ResolvedImportStatus = { ports, clusters: clusters.map((cluster) => ({ cluster })), type: CLUSTER_SET_IP };
  return {
    plan: { kind: 'resolved', status, create: current === undefined, newlyResolved: !keepPorts },
    verdicts,
    needFinalizer,
    releasable,
  };
}

function planWithoutExports(current: ServiceImport | undefined): ServiceImportPlan {
  if (!current) return { kind: 'absent' };
  if (!carriesAfdAnnotations(current)) return { kind: 'delete' };
  return { kind: 'keep-cleared', alreadyClear: statusIsEmpty(current.status) };
}

export function carriesAfdAnnotations(serviceImport: ServiceImport): boolean {
  return Object.keys(serviceImport.metadata.annotations ?? {}).some((key) => key.startsWith(RESERVED_PREFIX));
}

function statusIsEmpty(status: ServiceImportStatus | undefined): boolean {
  return Object.values(status ?? {}).every((value) => value === undefined || value === null);
}

/** RFC 3339 UTC timestamps of one precision sort as text, in code-point order. */
function olderFirst(a: InternalServiceExport, b: InternalServiceExport): number {
  return (
    compare(a.metadata.creationTimestamp ?? '', b.metadata.creationTimestamp ?? '') ||
    compare(a.metadata.namespace ?? '', b.metadata.namespace ?? '') ||
    compare(a.metadata.name ?? '', b.metadata.name ?? '')
  );
}
