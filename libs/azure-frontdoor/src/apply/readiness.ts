import type { AFDOrigin } from '@azure/arm-cdn';
import { describeRef, refKey, refName, refParent, type AfdRef } from '../plan/afd-refs.js';
import type { OperationResult } from './apply.js';
import { describeFailure } from '@fleet-gateway/arm-runtime';
import { failureOwners } from './failure-owners.js';
import type { DiffResult } from '../diff/diff.js';
import type { ObservedGraph } from '../observe/observe.js';
import { observedResources } from '../observe/observed-resources.js';
import { allRefs, allSpecs } from '../plan/plan-front-door.js';
import type { FailureReport, ResourceAction, ResourceReport } from '../observe/report-types.js';
import type { AnySpec, FrontDoorGraph, ProgrammableOriginSpec } from '../plan/spec-types.js';

type ArmState = {
  provisioningState?: string;
  deploymentStatus?: string;
  hostName?: string;
  frontDoorId?: string;
  sharedPrivateLinkResource?: AFDOrigin['sharedPrivateLinkResource'];
};

export interface Readiness {
  readonly resources: readonly ResourceReport[];
  readonly pending: readonly string[];
  readonly propagation: readonly string[];
  readonly failures: readonly FailureReport[];
  readonly endpointHostName?: string;
  readonly frontDoorId?: string;
  /** Private Link connections of the plan the member has not reported approved. */
  readonly privateLinkAwaiting: number;
}

function observedStates(observed: ObservedGraph, profile: string): Map<string, ArmState> {
  return new Map(observedResources(observed, profile).map(({ ref, arm }): [string, ArmState] => [refKey(ref), arm]));
}

function specsByKey(graph: FrontDoorGraph): Map<string, AnySpec> {
  return new Map(allSpecs(graph).map((s) => [refKey(s.ref), s]));
}

/** Private Link readiness comes from the member's report; AFD's own connection status is a cross-check. */
function privateLinkDetail(spec: ProgrammableOriginSpec, arm: ArmState | undefined): string | undefined {
  if (!spec.privateLink) return undefined;
  const afd = arm?.sharedPrivateLinkResource?.status;
  const member = spec.privateLink.memberState;
  return afd && afd !== member ? `Private Link: the member reports ${member}, AFD reports ${afd}` : `Private Link: ${member}`;
}

function failureReport(result: Extract<OperationResult, { outcome: 'failed' }>): FailureReport {
  const { op, failure, recalled } = result;
  return { ref: op.ref, action: op.action, failure, owners: failureOwners(op), ...(recalled ? { recalled } : {}) };
}

const ACTIONS: Readonly<Record<string, ResourceAction>> = { create: 'created', update: 'updated', delete: 'deleted' };

/**
 * Where every resource stands: provisioningState decides readiness; deploymentStatus (edge propagation) is only
 * reported; Private Link connections must be approved (as the member reports). Pending messages name the resource
 * and its state, e.g. `origin group og-web-… Creating`.
 */
export function assessReadiness(diff: DiffResult, results: readonly OperationResult[], observed: ObservedGraph): Readiness {
  const graph = diff.graph;
  const profile = graph.profile.ref.profile;
  const states = observedStates(observed, profile);
  const specs = specsByKey(graph);
  const resources: ResourceReport[] = [];
  const pending: string[] = [];
  const failures: FailureReport[] = [];
  const written = new Map(results.map((r) => [refKey(r.op.ref), r]));
  const notProgrammed = new Map(diff.notProgrammed.map((n) => [refKey(n.ref), n.reason]));
  const kept = new Map(diff.kept.map((n) => [refKey(n.ref), n.reason]));
  const report = (ref: AfdRef, action: ResourceAction, arm: ArmState | undefined, cause: string | undefined) => {
    const provenance = specs.get(refKey(ref))?.provenance ?? [];
    const parent = refParent(ref);
    resources.push({
      kind: ref.kind,
      name: refName(ref),
      ...(parent ? { parent } : {}),
      action,
      ...(arm?.provisioningState ? { state: arm.provisioningState } : {}),
      ...(arm?.deploymentStatus ? { deploymentStatus: arm.deploymentStatus } : {}),
      ...(ref.kind === 'origin' && arm?.sharedPrivateLinkResource?.status ? { privateLinkStatus: arm.sharedPrivateLinkResource.status } : {}),
      ...(cause ? { cause } : {}),
      provenance,
    });
  };
  for (const ref of allRefs(graph)) {
    const key = refKey(ref);
    const result = written.get(key);
    const arm = result?.outcome === 'done' ? (result.resource as ArmState | undefined) : states.get(key);
    const spec = specs.get(key);
    const plDetail = spec && ref.kind === 'origin' && !('keep' in spec && spec.keep) ? privateLinkDetail(spec as ProgrammableOriginSpec, arm) : undefined;
    if (notProgrammed.has(key)) {
      report(ref, 'not-programmed', undefined, notProgrammed.get(key));
      pending.push(`${describeRef(ref)} not programmed: ${notProgrammed.get(key)}`);
      continue;
    }
    if (result?.outcome === 'failed') {
      failures.push(failureReport(result));
      report(ref, 'failed', states.get(key), describeFailure(result.failure));
      continue;
    }
    // What was not attempted for a failure waits for it, which the failures report (with the routes it is theirs).
    // What the fence stopped is pending: nothing failed, this replica may just no longer write. The security policy is
    // the Gateway's: while it waits, custom domains written since may be served without the WAF policy, so the
    // Gateway is not programmed.
    if (result?.outcome === 'skipped') {
      report(ref, 'skipped', arm, result.because);
      if (result.fenced || ref.kind === 'securityPolicy') pending.push(`${describeRef(ref)} waits: ${result.because}`);
      continue;
    }
    if (result?.outcome === 'in-flight') {
      report(ref, 'in-flight', arm, result.because);
      pending.push(`${describeRef(ref)} ${result.op.action} in flight: ${result.because}`);
      continue;
    }
    const action: ResourceAction = result ? (ACTIONS[result.op.action] as ResourceAction) : kept.has(key) ? 'kept' : 'unchanged';
    report(ref, action, arm, [result?.op.reason ?? kept.get(key), plDetail].filter(Boolean).join('; ') || undefined);
    if (arm?.provisioningState && arm.provisioningState !== 'Succeeded') pending.push(`${describeRef(ref)} ${arm.provisioningState}`);
  }
  for (const result of results) {
    if (specs.has(refKey(result.op.ref))) continue;
    const key = refKey(result.op.ref);
    if (result.outcome === 'failed') failures.push(failureReport(result));
    const action: ResourceAction = result.outcome === 'done' ? (ACTIONS[result.op.action] as ResourceAction) : result.outcome;
    if (result.outcome === 'in-flight') pending.push(`${describeRef(result.op.ref)} ${result.op.action} in flight: ${result.because}`);
    if (result.outcome === 'skipped' && result.fenced) pending.push(`${describeRef(result.op.ref)} ${result.op.action} waits: ${result.because}`);
    const cause = result.outcome === 'failed' ? describeFailure(result.failure) : result.outcome === 'done' ? result.op.reason : result.because;
    report(result.op.ref, action, result.outcome === 'done' && result.op.action !== 'delete' ? (result.resource as ArmState) : states.get(key), cause);
  }
  for (const note of diff.kept)
    if (!specs.has(refKey(note.ref)) && !written.has(refKey(note.ref))) report(note.ref, 'kept', states.get(refKey(note.ref)), note.reason);
  for (const note of diff.notProgrammed) {
    if (specs.has(refKey(note.ref))) continue;
    report(note.ref, 'not-programmed', undefined, note.reason);
    pending.push(`${describeRef(note.ref)} not programmed: ${note.reason}`);
  }
  const afdStatusOf = (origin: ProgrammableOriginSpec): string | undefined => {
    const r = written.get(refKey(origin.ref));
    return (r?.outcome === 'done' ? (r.resource as ArmState | undefined) : states.get(refKey(origin.ref)))?.sharedPrivateLinkResource?.status;
  };
  const connections = privateLinkConnections(graph, afdStatusOf);
  pending.push(...privateLinkPending(connections));
  const endpoint = resources.find((r) => r.kind === 'endpoint' && r.name === graph.endpoint.ref.endpoint);
  const latest = (ref: AfdRef): ArmState | undefined => {
    const r = written.get(refKey(ref));
    return r?.outcome === 'done' ? (r.resource as ArmState) : states.get(refKey(ref));
  };
  const endpointArm = latest(graph.endpoint.ref);
  const frontDoorId = latest(graph.profile.ref)?.frontDoorId ?? observed.profile?.frontDoorId;
  const propagating = resources.filter((r) => r.deploymentStatus !== undefined && r.deploymentStatus !== 'Succeeded' && r.action !== 'deleted');
  const propagation =
    propagating.length === 0
      ? []
      : [
          `AFD is still deploying ${propagating.length} resource(s) to its edge (${endpoint?.deploymentStatus ? `endpoint deploymentStatus ${endpoint.deploymentStatus}` : 'endpoint pending'}); this does not block programming`,
        ];
  return {
    resources,
    pending,
    propagation,
    failures,
    privateLinkAwaiting: connections.waiting.length,
    ...(endpointArm?.hostName ? { endpointHostName: endpointArm.hostName } : {}),
    ...(frontDoorId ? { frontDoorId } : {}),
  };
}

type PrivateLinkConnections = ReturnType<typeof privateLinkConnections>;

/**
 * Private Link connections of the plan: AFD makes one private endpoint per profile, PLS and region, so origins that
 * share a PLS (and so the hub's request message) share one connection and one approval. A connection is approved
 * when the member reports it Approved and AFD, where it says, agrees: the member's report can be older than AFD's
 * own connection (an origin re-created after a deletion asks anew, while the member still lists the old connection
 * Approved), and an origin AFD holds Pending gets no traffic whatever the member last saw.
 */
function privateLinkConnections(graph: FrontDoorGraph, afdStatusOf: (origin: ProgrammableOriginSpec) => string | undefined) {
  const linked = graph.origins.filter((o): o is ProgrammableOriginSpec => o.keep === undefined && o.privateLink !== undefined);
  const connections = new Map<string, { id: string; clusters: Set<string>; state: string }>();
  for (const origin of linked) {
    const pl = origin.privateLink!;
    const key = `${pl.privateLinkId.toLowerCase()}|${pl.location}|${pl.requestMessage}`;
    const afd = afdStatusOf(origin);
    const state = pl.memberState === 'Approved' && afd !== undefined && afd !== 'Approved' ? `${afd} (AFD; the member last reported Approved)` : pl.memberState;
    const connection = connections.get(key) ?? { id: pl.privateLinkId, clusters: new Set<string>(), state };
    if (connection.state === 'Approved') connection.state = state;
    connection.clusters.add(origin.cluster);
    connections.set(key, connection);
  }
  const all = [...connections.values()];
  return { all, waiting: all.filter((c) => c.state !== 'Approved') };
}

/**
 * How an operator approves a pending Private Link connection of a Private Link Service by hand (docs/guide.md). AFD
 * names the connection itself, so the operator finds it by the request message this Gateway's origins carry.
 */
export function privateLinkApprovalCommand(privateLinkServiceId: string): string {
  return (
    `az network private-endpoint-connection list --id ${privateLinkServiceId} (the connection whose description is the request message), ` +
    'then az network private-endpoint-connection approve --id <connection id>'
  );
}

function privateLinkPending({ all, waiting }: PrivateLinkConnections): string[] {
  if (waiting.length === 0) return [];
  const who = waiting.map((c) => `${[...c.clusters].join(', ')} ${c.state}, PLS ${c.id}`).join('; ');
  const plsIds = [...new Set(waiting.map((c) => c.id))];
  const listId = plsIds.length === 1 ? plsIds[0]! : '<PLS id>';
  const how = `approve with: ${privateLinkApprovalCommand(listId)}, or let the member agent approve it`;
  return [`Private Link: ${waiting.length} of ${all.length} connections awaiting approval (${who}); ${how}`];
}
