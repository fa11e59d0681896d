import {
  allRefs,
  checkOwnership,
  describeRef,
  diffFrontDoor,
  observedResources,
  refKey,
  type AfdRef,
  type FrontDoorGraph,
  type FrontDoorPlan,
  type FrontDoorScope,
  type ObservedGraph,
  type OperationAction,
  type Owner,
} from '@fleet-gateway/azure-frontdoor';
import type { NodeState } from './status-tree.js';

/**
 * Where a resource stands between the plan and Azure: in both; planned and absent from Azure (`missing`); in the
 * Gateway's profile but not planned (`extra`, which the hub deletes); or not planned and left as it is on purpose
 * (`kept`: routing held while a rule is in error, unknown member data).
 */
export type AfdPresence = 'present' | 'missing' | 'extra' | 'kept';

export interface AfdResource {
  readonly ref: AfdRef;
  /** `route rt-web-0-…`, as the hub names it in status messages and events. */
  readonly resource: string;
  readonly presence: AfdPresence;
  readonly state: NodeState;
  /** ARM's `provisioningState` (the control plane's write) and `deploymentStatus` (the edge's), as read. */
  readonly provisioningState?: string;
  readonly deploymentStatus?: string;
  /** The write the hub's next reconcile would send for it, and why (drift, a missing or an extra resource). */
  readonly write?: { readonly action: OperationAction; readonly reason: string; readonly changes: readonly string[] };
  /** Why it is kept or cannot be programmed, when it is. */
  readonly note?: string;
}

/** The Gateway's AFD resources as Azure has them next to the plan, or why Azure could not be compared. */
export type AzureView =
  | {
      readonly read: true;
      readonly profile: string;
      readonly resources: readonly AfdResource[];
      /** The desired graph as the hub would write it against what Azure has (routes under the names they take over). */
      readonly graph: FrontDoorGraph;
      /** The writes the hub would send, in its order. */
      readonly writes: readonly { readonly action: OperationAction; readonly resource: string }[];
    }
  | { readonly read: false; readonly reason: string };

/**
 * A present resource's state from ARM's two fields: `Failed` in either is refused; a write still running
 * (provisioningState other than Succeeded) or the edge not yet deployed (deploymentStatus NotStarted or InProgress)
 * is pending; both done is ok. The profile has no deploymentStatus.
 */
export function stateOfArm(provisioningState: string | undefined, deploymentStatus: string | undefined): NodeState {
  if (provisioningState === 'Failed' || deploymentStatus === 'Failed') return 'refused';
  if (provisioningState !== 'Succeeded') return 'pending';
  if (deploymentStatus !== undefined && deploymentStatus !== 'Succeeded') return 'pending';
  return 'ok';
}

const STATE_OF_PRESENCE: Readonly<Record<Exclude<AfdPresence, 'present'>, NodeState>> = { missing: 'missing', extra: 'extra', kept: 'held' };

/**
 * The plan against the observed graph (pure), with the hub's own diff: each resource of the graph the hub would write
 * (present or missing) and each resource of the profile it does not plan (extra, or kept), with ARM's states and the
 * write the hub would send. A profile that is not this Gateway's is never compared (the hub never touches it).
 */
export function compareWithAzure(plan: FrontDoorPlan, observed: ObservedGraph, scope: FrontDoorScope, owner: Owner): AzureView {
  const profile = plan.graph.profile.ref.profile;
  if (observed.profile) {
    const ownership = checkOwnership(observed.profile.tags, owner);
    if (!ownership.owned) return { read: false, reason: `profile ${profile} exists but is not this Gateway's: ${ownership.reason}` };
  }
  const diff = diffFrontDoor(plan.graph, observed, scope);
  // A route handed over is written twice; the last write is what it ends as.
  const writes = new Map(diff.operations.map((op) => [refKey(op.ref), op]));
  const notes = new Map([...diff.kept, ...diff.notProgrammed].map((n) => [refKey(n.ref), n.reason]));
  const kept = new Set(diff.kept.map((n) => refKey(n.ref)));
  const arm = new Map(observedResources(observed, profile).map((r) => [refKey(r.ref), r]));
  const planned = allRefs(diff.graph);
  const plannedKeys = new Set(planned.map(refKey));
  const resourceOf = (ref: AfdRef): AfdResource => {
    const key = refKey(ref);
    const found = arm.get(key)?.arm as { provisioningState?: string; deploymentStatus?: string } | undefined;
    const presence: AfdPresence = plannedKeys.has(key) ? (found ? 'present' : 'missing') : kept.has(key) ? 'kept' : 'extra';
    const op = writes.get(key);
    const note = notes.get(key);
    return {
      ref,
      resource: describeRef(ref),
      presence,
      state: presence === 'present' ? stateOfArm(found?.provisioningState, found?.deploymentStatus) : STATE_OF_PRESENCE[presence],
      ...(found?.provisioningState !== undefined ? { provisioningState: found.provisioningState } : {}),
      ...(found?.deploymentStatus !== undefined ? { deploymentStatus: found.deploymentStatus } : {}),
      ...(op ? { write: { action: op.action, reason: op.reason, changes: op.changes } } : {}),
      ...(note !== undefined ? { note } : {}),
    };
  };
  const extras = [...arm.values()].filter((r) => !plannedKeys.has(refKey(r.ref))).map((r) => r.ref);
  return {
    read: true,
    profile,
    resources: [...planned, ...extras].map(resourceOf),
    graph: diff.graph,
    writes: diff.operations.map((op) => ({ action: op.action, resource: describeRef(op.ref) })),
  };
}

/** The AFD resource that holds `ref` in the pictures drawn (none for the profile). */
export function afdParent(ref: AfdRef): AfdRef | undefined {
  switch (ref.kind) {
    case 'profile':
      return undefined;
    case 'origin':
      return { kind: 'originGroup', profile: ref.profile, originGroup: ref.originGroup };
    case 'rule':
      return { kind: 'ruleSet', profile: ref.profile, ruleSet: ref.ruleSet };
    case 'route':
      return { kind: 'endpoint', profile: ref.profile, endpoint: ref.endpoint };
    default:
      return { kind: 'profile', profile: ref.profile };
  }
}
