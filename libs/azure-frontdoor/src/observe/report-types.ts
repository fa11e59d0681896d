import type { AfdKind, AfdRef } from '../plan/afd-refs.js';
import type { ArmFailure } from '@fleet-gateway/arm-runtime';
import type { CapacityUsage, CapacityViolation } from '../plan/capacity.js';
import type { CustomDomainReport } from './domain-validation.js';
import type { PlanProblem } from '../plan/plan-types.js';
import type { Provenance } from '../plan/spec-types.js';
import type { SourceRef } from '@fleet-gateway/model';

/** `in-flight`: written, but ARM had not finished within the operation deadline; observed again on the next reconcile. */
export type ResourceAction = 'created' | 'updated' | 'deleted' | 'unchanged' | 'kept' | 'not-programmed' | 'failed' | 'skipped' | 'in-flight';

/** Where one AFD resource stands after a reconcile. */
export interface ResourceReport {
  readonly kind: AfdKind;
  readonly name: string;
  /** Origin group of an origin, rule set of a rule, endpoint of a route. */
  readonly parent?: string;
  readonly action: ResourceAction;
  /** ARM provisioningState (absent for deleted or never-created resources). */
  readonly state?: string;
  /** AFD deploymentStatus (edge propagation): reported, never waited for. */
  readonly deploymentStatus?: string;
  /** A Private Link origin's connection as AFD sees it (`sharedPrivateLinkResource.status`: Pending, Approved, Rejected, Disconnected, Timeout). */
  readonly privateLinkStatus?: string;
  readonly cause?: string;
  readonly provenance: Provenance;
}

/** Why the reconcile ended where it did; one reason per outcome, for the Gateway's Programmed condition. */
export type ReconcileReason =
  | 'Programmed'
  | 'Pending'
  | 'CapacityExceeded'
  | 'InvalidPlan'
  | 'ForeignProfile'
  | 'SkuImmutable'
  | 'WafPolicyNotFound'
  | 'WafPolicySkuMismatch'
  | 'AzureReadFailed'
  | 'AzureWriteFailed';

/** The controller's tagged outcome: done, requeue after a while (pending), retry (transient), terminal. */
export type ReconcileOutcome =
  | { readonly type: 'done' }
  | { readonly type: 'requeue-after'; readonly afterMs: number; readonly reason: string }
  | { readonly type: 'retry'; readonly reason: string }
  | { readonly type: 'terminal'; readonly reason: string };

export interface FailureReport {
  readonly ref: AfdRef;
  readonly action: string;
  readonly failure: ArmFailure;
  /**
   * The HTTPRoutes whose programming this failure holds back (see `failureOwners`); empty for a failure of the
   * Gateway's own resources. A failure with owners holds back only them: the rest of the Gateway is programmed.
   */
  readonly owners: readonly SourceRef[];
  /** Not sent this time: ARM refused this exact write before (see `TerminalRefusals`). */
  readonly recalled?: boolean;
}

export interface ReconcileReport {
  readonly profile: string;
  /** Every desired resource provisioned and every Private Link connection approved. */
  readonly programmed: boolean;
  readonly reason: ReconcileReason;
  /** One status message saying exactly what is pending or wrong. */
  readonly message: string;
  readonly outcome: ReconcileOutcome;
  /** The endpoint's hostname (Gateway status.addresses), once it exists. */
  readonly endpointHostName?: string;
  /** The profile's frontDoorId: the X-Azure-FDID header value AFD sends to origins, once the profile exists. */
  readonly frontDoorId?: string;
  readonly resources: readonly ResourceReport[];
  readonly pending: readonly string[];
  /** Edge propagation (deploymentStatus) notes: informative only. */
  readonly propagation: readonly string[];
  readonly failures: readonly FailureReport[];
  /** Private Link connections (one per PLS and request message) the member has not reported approved. */
  readonly privateLinkAwaiting: number;
  /** Every planned custom domain with its DNS validation state and the records the operator must create. */
  readonly customDomains: readonly CustomDomainReport[];
  readonly problems: readonly PlanProblem[];
  readonly capacity: readonly CapacityViolation[];
  /** The plan's use of each AFD limit of the profile's SKU. */
  readonly usage: readonly CapacityUsage[];
  /**
   * ARM reads this reconcile issued and ARM answered: the observation (1 when the profile is absent, else
   * 6 + E + G + S list pages, see `observeFrontDoor`), the WAF policy read, and long-running-operation polls.
   * A request the retry policy repeated counts once.
   */
  readonly reads: number;
  /** ARM writes this reconcile issued (retries and polls not counted). */
  readonly writes: number;
}
