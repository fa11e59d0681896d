import { allSpecs, describeRef, isWritable, planFrontDoor, type FrontDoorPlan } from '@fleet-gateway/azure-frontdoor';
import type { Sku } from '@fleet-gateway/annotations';
import type { Condition } from '@fleet-gateway/api-types';
import { hubInputsOf, type HubObjects } from '@fleet-gateway/gateway-controllers';
import { CONTROLLER_NAME, resolveGateway, type GatewayIdentity, type Verdicts } from '@fleet-gateway/model';
import { parseAllDocuments } from 'yaml';
import type { AzureView } from './afd-resources.js';
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
  /**
   * The ARM writes the change would cause: from `azure`, the hub's diff of the changed objects' plan against the AFD
   * graph read from Azure (what the hub would really send); from `hub`, the writes between the current and the changed
   * objects' plans (Azure not read).
   */
  readonly writes: readonly AzureWrite[];
  readonly writesFrom: 'azure' | 'hub';
  /** Why the hub would write nothing for this Gateway (a plan problem, AFD's capacity), when it would not. */
  readonly blocked: readonly string[];
}

/** One Gateway the change affects: its verdicts and the plans of its current and changed objects. */
export interface GatewayPlans {
  readonly gateway: string;
  readonly verdicts: readonly ObjectVerdict[];
  readonly blocked: readonly string[];
  /** The writes between the two plans. */
  readonly hubWrites: readonly AzureWrite[];
  /** The changed objects' plan and the Gateway it is for (absent when the Gateway would not be accepted). */
  readonly after?: { readonly plan: FrontDoorPlan; readonly gateway: GatewayIdentity };
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

/** What the plan's ownership tags say of the hub: the hub's real identity when Azure is compared, else any fixed one. */
export interface PlanOptions {
  readonly hubIdentity: string;
}

// Without Azure the hub identity only goes into the plan's ownership tags, the same in both plans compared.
export const PLAN_OPTIONS: PlanOptions = { hubIdentity: 'kubectl-afd' };

/**
 * The Gateways of this controller whose inputs the change alters (pure): for each, the verdicts of the changed
 * objects, the writes between the plans of the current and the changed objects (both computed here with the hub's
 * resolve and plan), and the changed objects' plan, which `planChange` compares with Azure when it was read.
 */
export function gatewayPlans(before: HubObjects, after: HubObjects, defaultSku: Sku, options: PlanOptions, only?: string): GatewayPlans[] {
  const ourClasses = new Set(after.gatewayClasses.filter((c) => c.spec.controllerName === CONTROLLER_NAME).map((c) => c.metadata.name));
  const gateways = after.gateways.filter((g) => ourClasses.has(g.spec.gatewayClassName) && (only === undefined || keyOf(g) === only));
  return gateways.flatMap((gateway) => {
    const key = keyOf(gateway);
    const was = hubInputsOf(before, key, defaultSku);
    const wasResult = was && resolveGateway(was);
    const result = resolveGateway(hubInputsOf(after, key, defaultSku)!);
    const afterPlan = result.model && planFrontDoor(result.model, options);
    const blocked =
      afterPlan && !isWritable(afterPlan)
        ? [...afterPlan.problems.filter((p) => p.blocksWrites).map((p) => p.message), ...afterPlan.capacity.map((c) => c.message)]
        : [];
    const verdicts = verdictsOf(result.verdicts, key);
    const hubWrites = blocked.length > 0 ? [] : writesBetween(wasResult?.model && planFrontDoor(wasResult.model, options), afterPlan);
    // A Gateway the change leaves as it is (same verdicts, nothing to write) is not listed.
    const unchanged =
      wasResult && hubWrites.length === 0 && blocked.length === 0 && JSON.stringify(verdictsOf(wasResult.verdicts, key)) === JSON.stringify(verdicts);
    if (unchanged) return [];
    return [
      { gateway: key, verdicts, blocked, hubWrites, ...(afterPlan && result.model ? { after: { plan: afterPlan, gateway: result.model.gateway } } : {}) },
    ];
  });
}

/**
 * What applying the change would do to each Gateway it affects (pure): with the Gateway's AFD graph read from Azure
 * (`azure`, by Gateway), the writes are the hub's diff of the changed objects' plan against it, so a resource that
 * drifted in Azure or is missing there is written too; without, the writes between the two plans.
 */
export function planChange(plans: readonly GatewayPlans[], azure: ReadonlyMap<string, AzureView> = new Map()): GatewayPlanChange[] {
  return plans.map(({ gateway, verdicts, blocked, hubWrites }) => {
    const view = azure.get(gateway);
    if (view?.read !== true || blocked.length > 0) return { gateway, verdicts, writes: hubWrites, writesFrom: 'hub', blocked };
    return { gateway, verdicts, writes: view.writes, writesFrom: 'azure', blocked };
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
    const from = change.writesFrom === 'azure' ? 'against the AFD graph read from Azure' : 'between the current and the changed plans; Azure not read';
    if (change.blocked.length === 0) lines.push(`  ${change.writes.length} Azure writes (${from})${change.writes.length > 0 ? ':' : ''}`);
    for (const write of change.writes) lines.push(`    ${write.action.padEnd(6)} ${write.resource}`);
  }
  return `${lines.join('\n')}\n`;
}
