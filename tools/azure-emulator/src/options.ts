import { fileURLToPath } from 'node:url';
import type { DeploymentTiming } from './arm/context.js';
import type { OperationTiming } from './arm/lro.js';
import type { RoleAssignment } from './authorization/role-assignments.js';
import type { ArmAuthentication } from './identity/arm-authentication.js';
import type { ManagedIdentitySettings } from './identity/token-issuer.js';
import type { ProviderLimitSettings } from './arm/provider-throttling.js';
import { ARM_DEFAULT_THROTTLING, type BucketSettings, type ThrottlingSettings } from './arm/throttling.js';
import { resolveLimits, type LimitOverrides, type Limits } from './limits.js';
import { operationTiming, type OperationTimingsProfile } from './operation-timings.js';
import type { PrivateLinkTiming } from './private-link/connections.js';

export interface EmulatorOptions {
  /** Ports on 127.0.0.1; 0 (the default) picks free ones. */
  armPort?: number;
  edgePort?: number;
  edgeTlsPort?: number;
  adminPort?: number;
  /** Port of the managed-identity token endpoint (App Service protocol, plain HTTP like App Service's). */
  identityPort?: number;
  /**
   * Which Bearer tokens ARM takes: `any-bearer` (the default; the SDK test beds' fixed-token credential) or
   * `issued-tokens`: only unexpired tokens of this emulator's managed-identity endpoint, for ARM's audience.
   */
  armAuthentication?: ArmAuthentication;
  /** The managed identity tokens are issued to (tenant, client and principal ids, token lifetime). */
  managedIdentity?: Partial<ManagedIdentitySettings>;
  /**
   * Azure RBAC from the start (the admin API adds more): a principal with an assignment may do only what its roles
   * grant at or above each request's scope, and is refused with ARM's 403 `AuthorizationFailed` otherwise. The
   * principal is the object id of a token this emulator issued; tokens of no assigned principal are not checked.
   */
  roleAssignments?: readonly RoleAssignment[];
  /**
   * How long long-running operations take. `fast` (the default): every operation `lroDelayMs`, ended by a real-time
   * timer, Retry-After `lroRetryAfterSeconds`. `azure`: Front Door's durations per kind and action (profile, endpoint,
   * origin group, origin, route, rule set, rule, security policy, custom domain, secret: create, update, delete), each
   * drawn between its recorded bounds with seeded jitter, ended when the `clock` passes them; Retry-After 10 s on the
   * 201/202 and none on status polls, no operation URLs on a write that ended within its request, as Front Door
   * answers (fidelity ledger A84, A85; the table:
   * `AZURE_OPERATION_DURATIONS`). Kinds and POST actions without a Front Door figure keep `lroDelayMs`.
   */
  operationTimings?: OperationTimingsProfile;
  /** Seed of the `azure` timings' jitter (default 1): one seed and one order of writes give the same durations. */
  operationTimingSeed?: number;
  /** How long a long-running operation takes before it ends (default 100 ms; 0 ends it within the request). */
  lroDelayMs?: number;
  /** Retry-After (seconds) on responses of running operations, as ARM sends it (default 1; 0 sends none). */
  lroRetryAfterSeconds?: number;
  /** Items per list page before `nextLink` (default 100). */
  pageSize?: number;
  /** AFD deploymentStatus timing: a named profile (default `azure`) or explicit timing over `azure`'s. */
  deployment?: DeploymentProfile | Partial<DeploymentTiming>;
  /**
   * ARM token buckets (default ARM's: reads 250 burst +25/s, writes 200 burst +10/s) and Microsoft.Network's own
   * per-subscription limit (default 10,000 reads and 1,000 writes per 300 s; `network: false` turns it off);
   * `false` turns all throttling off.
   */
  throttling?: false | { reads?: Partial<BucketSettings>; writes?: Partial<BucketSettings>; network?: false | Partial<ProviderLimitSettings> };
  /** Lower or raise Azure limits (e.g. to reach them in a test). */
  limits?: LimitOverrides;
  edge?: EdgeOptions;
  /** The subscription AFD's managed private endpoints come from. */
  afdManagedSubscriptionId?: string;
  /**
   * AFD's Private Link timing: the connection appears `connectionDelayMs` (default 2,000) after the origin's write
   * succeeded; the edge serves through it `approvalPropagationMs` (default 60,000) after approval; a connection still
   * Pending after `pendingTimeoutMs` (default: never) shows `Timeout` on its origins; `reapproveRejected` (default
   * false) lets a Rejected connection be approved again.
   */
  privateLink?: Partial<PrivateLinkTiming>;
  /** Directory of the vendored official specs (default: this project's specs/). */
  specDir?: string;
  /** Random source for origin selection (default Math.random), so tests can be deterministic. */
  random?: () => number;
  /**
   * Time in ms since the epoch (default Date.now): drives deploymentStatus, the throttling buckets' refill, timestamps
   * and `azure` operation timings, so tests can move time instead of waiting for it. `fast` long-running operations and
   * edge delays use timers.
   */
  clock?: () => number;
}

export interface EdgeOptions {
  /** One simulated edge per entry: how long it takes that edge to apply a change (default [0, 150, 300]). */
  propagationDelaysMs?: number[];
  /** Multiplies every origin group's probeIntervalInSeconds (default 1; tests use e.g. 0.02). */
  probeIntervalScale?: number;
  /** Simulated network latency from the edge to an origin, by origin host name (default 0). */
  originLatencyMs?: Record<string, number>;
}

export interface ResolvedOptions {
  armPort: number;
  edgePort: number;
  edgeTlsPort: number;
  adminPort: number;
  identityPort: number;
  armAuthentication: ArmAuthentication;
  managedIdentity: ManagedIdentitySettings;
  roleAssignments: readonly RoleAssignment[];
  operationTiming: OperationTiming;
  pageSize: number;
  deployment: DeploymentTiming;
  throttling?: ThrottlingSettings;
  limits: Limits;
  edge: Required<EdgeOptions>;
  afdManagedSubscriptionId: string;
  privateLink: PrivateLinkTiming;
  specDir: string;
  random: () => number;
  clock: () => number;
}

const DEFAULT_LRO_RETRY_AFTER_SECONDS = 1;

const DEFAULT_MANAGED_IDENTITY: ManagedIdentitySettings = {
  tenantId: '72f988bf-0000-4000-8000-00000000e7e1',
  clientId: '5e29463d-0000-4000-8000-0000000c11e7',
  principalId: '9a8b7c6d-0000-4000-8000-00000000011d',
  lifetimeSeconds: 24 * 3600,
};

/**
 * deploymentStatus timings, counted from the moment a write's provisioning succeeds. Real endpoints are seen
 * `NotStarted`/`InProgress` for many minutes after provisioning succeeded, so the default keeps it there for minutes:
 * code that waits on it is caught. `watchable` is what `make local-up` uses (a person sees it move); `fast` is for
 * tests that look at the progression itself without moving the clock.
 */
export const DEPLOYMENT_PROFILES = {
  azure: { mode: 'progress', notStartedMs: 120_000, inProgressMs: 600_000 },
  watchable: { mode: 'progress', notStartedMs: 10_000, inProgressMs: 30_000 },
  fast: { mode: 'progress', notStartedMs: 50, inProgressMs: 200 },
  stuck: { mode: 'stuck', notStartedMs: 0, inProgressMs: 0 },
} as const satisfies Record<string, DeploymentTiming>;

export type DeploymentProfile = keyof typeof DEPLOYMENT_PROFILES;

export const DEFAULT_SPEC_DIR = fileURLToPath(new URL('../specs', import.meta.url));

export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  return {
    armPort: options.armPort ?? 0,
    edgePort: options.edgePort ?? 0,
    edgeTlsPort: options.edgeTlsPort ?? 0,
    adminPort: options.adminPort ?? 0,
    identityPort: options.identityPort ?? 0,
    armAuthentication: options.armAuthentication ?? 'any-bearer',
    managedIdentity: { ...DEFAULT_MANAGED_IDENTITY, ...options.managedIdentity },
    roleAssignments: options.roleAssignments ?? [],
    operationTiming: operationTiming({
      profile: options.operationTimings ?? 'fast',
      lroDelayMs: options.lroDelayMs ?? 100,
      ...(options.lroRetryAfterSeconds === 0 ? {} : { lroRetryAfterSeconds: options.lroRetryAfterSeconds ?? DEFAULT_LRO_RETRY_AFTER_SECONDS }),
      seed: options.operationTimingSeed ?? 1,
    }),
    pageSize: options.pageSize ?? 100,
    deployment: typeof options.deployment === 'string' ? DEPLOYMENT_PROFILES[options.deployment] : { ...DEPLOYMENT_PROFILES.azure, ...options.deployment },
    throttling:
      options.throttling === false
        ? undefined
        : {
            reads: { ...ARM_DEFAULT_THROTTLING.reads, ...options.throttling?.reads },
            writes: { ...ARM_DEFAULT_THROTTLING.writes, ...options.throttling?.writes },
            ...(options.throttling?.network === false ? {} : { network: { ...ARM_DEFAULT_THROTTLING.network, ...options.throttling?.network } }),
          },
    limits: resolveLimits(options.limits),
    edge: {
      propagationDelaysMs: options.edge?.propagationDelaysMs ?? [0, 150, 300],
      probeIntervalScale: options.edge?.probeIntervalScale ?? 1,
      originLatencyMs: { ...options.edge?.originLatencyMs },
    },
    afdManagedSubscriptionId: options.afdManagedSubscriptionId ?? 'afd00000-0000-4000-8000-00000000afd0',
    privateLink: { connectionDelayMs: 2_000, approvalPropagationMs: 60_000, reapproveRejected: false, ...options.privateLink },
    specDir: options.specDir ?? DEFAULT_SPEC_DIR,
    random: options.random ?? Math.random,
    clock: options.clock ?? Date.now,
  };
}
