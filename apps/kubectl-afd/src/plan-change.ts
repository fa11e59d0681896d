import { allSpecs, describeRef, isWritable, planFrontDoor, type FrontDoorPlan } from '@fleet-gateway/azure-frontdoor';
import type { Sku } from '@fleet-gateway/annotations';
import type { Condition } from '@fleet-gateway/api-types';
import { hubInputsOf, type HubObjects } from '@fleet-gateway/gateway-controllers';
import { CONTROLLER_NAME, resolveGateway, type Verdicts } from '@fleet-gateway/model';
import { parseAllDocuments } from 'yaml';
import { stateOfConditions, type NodeState } from './status-tree.js';

/** The object lists of HubObjects by the kind of their objects. */
const LIST_OF_KIND = {
  GatewayClass: 'gatewayClasses',
  Gateway: 'gateways',
  HTTPRoute: 'httpRoutes',
  ReferenceGrant: 'referenceGrants',
  ServiceImport: 'serviceImports',
  InternalServiceExport: 'internalServiceExports',
  Namespace: 'namespaces',
} as const satisfies Record<string, keyof HubObjects>;
type ChangeKind = keyof typeof LIST_OF_KIND;
const CLUSTER_SCOPED: readonly ChangeKind[] = ['GatewayClass', 'Namespace'];

interface ChangedObject {
  readonly kind: ChangeKind;
  readonly metadata: { readonly name: string; readonly namespace?: string; readonly annotations?: Record<string, string> };
  readonly [field: string]: unknown;
}

/** A change file that cannot be read: every problem names the document, the field, the value and what is expected. */
export class ChangeFileError extends Error {
  override readonly name = 'ChangeFileError';
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The objects of a change file (YAML, one object per document), each namespaced one in `namespace` unless it names one. */
export function readChange(text: string, namespace: string): ChangedObject[] {
  const problems: string[] = [];
  const objects: ChangedObject[] = [];
  parseAllDocuments(text).forEach((document, i) => {
    const where = `document ${i + 1}`;
    if (document.errors.length > 0) return void problems.push(`${where}: ${document.errors[0]!.message}`);
    const value: unknown = document.toJS();
    if (value === null || value === undefined) return;
    if (!isRecord(value)) return void problems.push(`${where} is ${JSON.stringify(value)}; expected a Kubernetes object`);
    const kind = value['kind'];
    if (typeof kind !== 'string' || !(kind in LIST_OF_KIND)) {
      return void problems.push(`${where}: kind is ${JSON.stringify(kind)}; expected one of ${Object.keys(LIST_OF_KIND).join(', ')}`);
    }
    const metadata = value['metadata'];
    if (!isRecord(metadata) || typeof metadata['name'] !== 'string' || metadata['name'] === '') {
      return void problems.push(`${where}: metadata.name is ${JSON.stringify(isRecord(metadata) ? metadata['name'] : metadata)}; expected a name`);
    }
    const scoped = CLUSTER_SCOPED.includes(kind as ChangeKind)
      ? {}
      : { namespace: typeof metadata['namespace'] === 'string' ? metadata['namespace'] : namespace };
    objects.push({ ...value, kind: kind as ChangeKind, metadata: { ...metadata, name: metadata['name'], ...scoped } });
  });
  if (problems.length > 0) throw new ChangeFileError(`the change file cannot be read: ${problems.join('; ')}`);
  return objects;
}

const keyOf = (object: { metadata: { name?: string; namespace?: string } }) => `${object.metadata.namespace ?? ''}/${object.metadata.name}`;

/**
 * The hub's objects as they would be once the change is applied (as `kubectl apply` would leave them): a changed
 * object keeps the annotations the hub wrote (the accepted specs of held routes) and the status it has; its
 * generation goes up when its spec changes. Objects the change does not name stay as they are.
 */
export function withChange(objects: HubObjects, change: readonly ChangedObject[]): HubObjects {
  const lists: Record<string, readonly { metadata: { name?: string; namespace?: string; annotations?: Record<string, string>; generation?: number } }[]> = {
    ...objects,
  };
  for (const object of change) {
    const listName = LIST_OF_KIND[object.kind];
    const list = lists[listName]!;
    const current = list.find((o) => keyOf(o) === keyOf(object)) as (Record<string, unknown> & (typeof list)[number]) | undefined;
    const specChanged = JSON.stringify(current?.['spec']) !== JSON.stringify(object['spec']);
    const merged = {
      ...object,
      metadata: {
        ...current?.metadata,
        ...object.metadata,
        ...(current?.metadata.annotations || object.metadata.annotations
          ? { annotations: { ...current?.metadata.annotations, ...object.metadata.annotations } }
          : {}),
        generation: (current?.metadata.generation ?? 0) + (specChanged || !current ? 1 : 0),
      },
      ...(current?.['status'] !== undefined ? { status: current['status'] } : {}),
    };
    lists[listName] = current ? list.map((o) => (o === current ? merged : o)) : [...list, merged];
  }
  return lists as unknown as HubObjects;
}

export interface ObjectVerdict {
  /** `HTTPRoute shop/web`, `Gateway shop/edge`, `Gateway shop/edge listener http`. */
  readonly object: string;
  readonly state: NodeState;
  readonly reasons: readonly string[];
}

export interface AzureWrite {
  readonly action: 'create' | 'update' | 'delete';
  readonly resource: string;
}

export interface GatewayPlanChange {
  readonly gateway: string;
  /** Each object of the Gateway that would not be fully accepted, and why, in the hub's words. */
  readonly verdicts: readonly ObjectVerdict[];
  /** The ARM writes that bring the current objects' desired AFD graph to the changed objects' one. */
  readonly writes: readonly AzureWrite[];
  /** Why the hub would write nothing for this Gateway (a plan problem, AFD's capacity), when it would not. */
  readonly blocked: readonly string[];
}

function verdictsOf(verdicts: Verdicts, gateway: string): ObjectVerdict[] {
  const of = (object: string, conditions: readonly unknown[]): ObjectVerdict[] => {
    const { state, reasons } = stateOfConditions(conditions as Condition[]);
    return state === 'ok' ? [] : [{ object, state, reasons }];
  };
  return [
    ...(verdicts.gateway ? of(`Gateway ${gateway}`, verdicts.gateway.conditions) : []),
    ...(verdicts.gateway?.listeners ?? []).flatMap((l) => of(`Gateway ${gateway} listener ${l.name}`, l.conditions)),
    ...verdicts.routes.flatMap((r) => r.parents.flatMap((p) => of(`HTTPRoute ${r.namespace}/${r.name}`, p.conditions))),
  ];
}

/** A spec as ARM would be written, without where it came from. */
function specsOf(plan: FrontDoorPlan | undefined): Map<string, string> {
  const specs = new Map<string, string>();
  if (!plan) return specs;
  for (const spec of allSpecs(plan.graph)) {
    const { provenance: _provenance, ...body } = spec;
    specs.set(describeRef(spec.ref), JSON.stringify(body));
  }
  return specs;
}

function writesBetween(before: FrontDoorPlan | undefined, after: FrontDoorPlan | undefined): AzureWrite[] {
  const was = specsOf(before);
  const will = specsOf(after);
  const writes: AzureWrite[] = [];
  for (const [resource, body] of will) {
    const previous = was.get(resource);
    if (previous === undefined) writes.push({ action: 'create', resource });
    else if (previous !== body) writes.push({ action: 'update', resource });
  }
  for (const resource of was.keys()) if (!will.has(resource)) writes.push({ action: 'delete', resource });
  return writes;
}

// The hub identity only goes into the plan's ownership tags, the same in both plans compared.
export const PLAN_OPTIONS = { hubIdentity: 'kubectl-afd' };

/**
 * What applying the change would do to each Gateway of this controller whose inputs it changes (pure): the verdicts
 * of the changed objects, and the writes between the plans of the current and the changed objects (both computed
 * here with the hub's resolve and plan, so Azure's actual state is not consulted: a resource that drifted in Azure
 * would also be written).
 */
export function planChange(before: HubObjects, after: HubObjects, defaultSku: Sku, only?: string): GatewayPlanChange[] {
  const ourClasses = new Set(after.gatewayClasses.filter((c) => c.spec.controllerName === CONTROLLER_NAME).map((c) => c.metadata.name));
  const gateways = after.gateways.filter((g) => ourClasses.has(g.spec.gatewayClassName) && (only === undefined || keyOf(g) === only));
  return gateways.flatMap((gateway) => {
    const key = keyOf(gateway);
    const was = hubInputsOf(before, key, defaultSku);
    const wasResult = was && resolveGateway(was);
    const result = resolveGateway(hubInputsOf(after, key, defaultSku)!);
    const afterPlan = result.model && planFrontDoor(result.model, PLAN_OPTIONS);
    const blocked =
      afterPlan && !isWritable(afterPlan)
        ? [...afterPlan.problems.filter((p) => p.blocksWrites).map((p) => p.message), ...afterPlan.capacity.map((c) => c.message)]
        : [];
    const verdicts = verdictsOf(result.verdicts, key);
    const writes = blocked.length > 0 ? [] : writesBetween(wasResult?.model && planFrontDoor(wasResult.model, PLAN_OPTIONS), afterPlan);
    // A Gateway the change leaves as it is (same verdicts, nothing to write) is not listed.
    const unchanged =
      wasResult && writes.length === 0 && blocked.length === 0 && JSON.stringify(verdictsOf(wasResult.verdicts, key)) === JSON.stringify(verdicts);
    return unchanged ? [] : [{ gateway: key, verdicts, writes, blocked }];
  });
}

/** For people: per Gateway, the verdicts then the writes. */
export function renderPlanChange(changes: readonly GatewayPlanChange[]): string {
  if (changes.length === 0) return 'the change alters no Gateway of this controller: nothing would be written\n';
  const lines: string[] = [];
  for (const change of changes) {
    lines.push(`Gateway ${change.gateway}`);
    if (change.verdicts.length === 0) lines.push('  every object accepted');
    for (const verdict of change.verdicts) {
      lines.push(`  ${verdict.state.padEnd(8)} ${verdict.object}`);
      for (const reason of verdict.reasons) lines.push(`           ${reason}`);
    }
    for (const why of change.blocked) lines.push(`  nothing would be written: ${why}`);
    if (change.blocked.length === 0) lines.push(`  ${change.writes.length} Azure writes${change.writes.length > 0 ? ':' : ''}`);
    for (const write of change.writes) lines.push(`    ${write.action.padEnd(6)} ${write.resource}`);
  }
  return `${lines.join('\n')}\n`;
}
