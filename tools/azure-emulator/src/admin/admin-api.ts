import { ArmError } from '../arm/errors.js';
import { resourceKey } from '../arm/resource-id.js';
import type { EmulatorContext } from '../emulator-context.js';
import { AFD } from '../cdn/afd-common.js';
import type { RoleAssignment } from '../authorization/role-assignments.js';
import { createWafPolicy, deleteWafPolicy, type WafPolicySpec } from '../network/waf-policies.js';
import type { CounterEntry, RequestCounters } from './counters.js';
import type { ConsumerEndpointSpec } from '../private-link/connections.js';
import type { Fault, FaultInjector, FaultSpec } from './faults.js';

const DEFAULT_RESOURCE_GROUP_LOCATION = 'eastus';

export interface ResourceSnapshot {
  id: string;
  type: string;
  provisioningState: string;
  body: unknown;
  applied?: unknown;
  internal: Record<string, unknown>;
}

export interface StateDump {
  resources: ResourceSnapshot[];
  operations: unknown[];
  privateLinkConnections: unknown[];
  faults: Fault[];
  counters: CounterEntry[];
  edges: unknown;
}

/** afdx.json DomainValidationState. */
const DOMAIN_VALIDATION_STATES = [
  'Unknown',
  'Submitting',
  'Pending',
  'Rejected',
  'TimedOut',
  'PendingRevalidation',
  'Approved',
  'RefreshingValidationToken',
  'InternalError',
];

/** The part of the admin API that concerns ARM state; the edge adds its own controls (see EdgeAdmin). */
export class ArmAdmin {
  constructor(
    private readonly context: EmulatorContext,
    private readonly counters: RequestCounters,
    private readonly faults: FaultInjector,
  ) {}

  requestCounts(): CounterEntry[] {
    return this.counters.entries();
  }

  /** Sum of requests matching the filter, e.g. `{ method: 'PUT', resourceType: 'Microsoft.Cdn/profiles' }`. */
  requestTotal(filter: Partial<Omit<CounterEntry, 'count'>> = {}): number {
    return this.counters.total(filter);
  }

  resetCounters(): void {
    this.counters.reset();
  }

  injectFault(spec: FaultSpec): Fault {
    return this.faults.add(spec);
  }

  listFaults(): Fault[] {
    return this.faults.list();
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /** Ends every running long-running operation now (as if its delay had passed); returns how many ended. */
  finishOperations(): number {
    return this.context.operations.finishAll();
  }

  /** Assigns a role to a principal (a token's object id) at a scope: from then on that principal is checked. */
  assignRole(assignment: RoleAssignment): void {
    this.context.roles.assign(assignment);
  }

  /** Removes every role assignment and what was recorded: nobody is checked any more. */
  clearRoleAssignments(): void {
    this.context.roles.clear();
  }

  /** The ARM actions a checked principal asked for (granted or refused), sorted: what its role must grant, no more. */
  exercisedActions(principalId: string): string[] {
    return this.context.roles.exercisedBy(principalId);
  }

  /** Creates a resource group (or updates its tags), as `PUT .../resourcegroups/{name}` does through ARM; returns its id. */
  createResourceGroup(spec: { subscriptionId: string; name: string; location?: string; tags?: Record<string, string> }): string {
    return this.context.resourceGroups.put(spec.subscriptionId, spec.name, spec.location ?? DEFAULT_RESOURCE_GROUP_LOCATION, spec.tags).group.id;
  }

  /** Marks a custom domain's DNS TXT validation as done: its domainValidationState becomes Approved. */
  validateCustomDomain(id: string): void {
    this.setCustomDomainValidationState(id, 'Approved');
  }

  /** Puts a custom domain in any of the spec's domainValidationStates (what DNS and the CA would decide on Azure). */
  setCustomDomainValidationState(id: string, state: string): void {
    const record = this.context.store.get(resourceKey(id));
    if (record?.kindKey !== AFD.customDomain) throw new ArmError(404, 'ResourceNotFound', `Custom domain '${id}' was not found.`);
    if (!DOMAIN_VALIDATION_STATES.includes(state)) {
      throw new ArmError(400, 'BadRequest', `'state' must be one of ${DOMAIN_VALIDATION_STATES.join(', ')}; got ${JSON.stringify(state)}.`);
    }
    record.internal.validationState = state;
    this.context.store.changed();
  }

  /**
   * A private endpoint outside AFD (a consumer's own, in its subscription) requests a connection to a Private Link
   * Service: Pending with the request message, unless the service auto-approves that subscription. Returns the
   * connection's id. AFD's own endpoints come only from Private Link origins.
   */
  connectPrivateEndpoint(spec: ConsumerEndpointSpec): string {
    return this.context.privateLink.connectConsumer(spec);
  }

  /** Creates (or replaces) a Front Door WAF policy; returns its id. */
  createWafPolicy(spec: WafPolicySpec): string {
    return createWafPolicy(spec, this.context).id;
  }

  deleteWafPolicy(id: string): void {
    deleteWafPolicy(id, this.context);
  }

  dumpResources(): Omit<StateDump, 'edges'> {
    this.context.operations.finishDue();
    return {
      resources: this.context.store.all().map((record) => ({
        id: record.id,
        type: record.kindKey,
        provisioningState: record.provisioningState,
        body: record.body,
        ...(record.applied === undefined ? {} : { applied: record.applied }),
        internal: record.internal,
      })),
      operations: this.context.operations.all(),
      privateLinkConnections: this.context.privateLink.describe(),
      faults: this.faults.list(),
      counters: this.counters.entries(),
    };
  }
}
