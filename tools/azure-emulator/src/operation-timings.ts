import type { OperationAction, OperationTiming } from './arm/lro.js';
import { AFD } from './cdn/afd-common.js';
import { seededRandom } from './seeded-random.js';

/**
 * How long long-running operations take: `fast` (every operation `lroDelayMs`, Retry-After `lroRetryAfterSeconds`:
 * what tests use) or `azure` (Front Door's per kind and action, as publicly recorded; fidelity ledger A84, A85).
 */
export const OPERATION_TIMING_PROFILES = ['fast', 'azure'] as const;
export type OperationTimingsProfile = (typeof OPERATION_TIMING_PROFILES)[number];

/** A duration drawn uniformly between the bounds: the jitter. */
export interface DurationBounds {
  minMs: number;
  maxMs: number;
  /** `measured`: the bounds a recorded run pins the operation between; otherwise the figure it is derived from. */
  basis: 'measured' | `as ${string}`;
}

export interface KindTimings {
  /** The kind as the fidelity ledger and the benchmarks name it. */
  kind: string;
  kindKey: string;
  create: DurationBounds;
  update: DurationBounds;
  delete: DurationBounds;
}

const seconds = (min: number, max: number, basis: DurationBounds['basis'] = 'measured'): DurationBounds => ({
  minMs: min * 1000,
  maxMs: max * 1000,
  basis,
});

// Measured (Azure/azure-cli recordings test_afd_route_crud and test_afd_origin_group_crud, 2023-12-04, and
// test_afd_profile_crud, 2023-12-08; api-version 2023-05-01): each operation lies between the last status poll that read InProgress and the first that
// read Succeeded, counted from the 201/202.
const PROFILE_CREATE = seconds(32, 63);
/** A tags PATCH. */
const PROFILE_UPDATE = seconds(30, 60);
/** A profile with nothing under it. */
const PROFILE_DELETE = seconds(0, 31);
const ENDPOINT_CREATE = seconds(2, 34);
const ORIGIN_CREATE = seconds(1, 32);
const ROUTE_CREATE = seconds(32, 63);
const ROUTE_UPDATE = seconds(33, 64);
const ROUTE_DELETE = seconds(1, 32);
const ORIGIN_GROUP_DELETE = seconds(0, 32);
const CUSTOM_DOMAIN_CREATE = seconds(63, 94);
/** Origin group create answered 201 `Succeeded` within the request, with no operation to poll. */
const WITHIN_REQUEST = seconds(0, 0);
/** RuleSets_Create is not long-running in the spec: the duration is never used. */
const NOT_LONG_RUNNING = seconds(0, 0, 'as the spec: not long-running');

const as = (bounds: DurationBounds, basis: `${string} ${OperationAction}`): DurationBounds => ({ ...bounds, basis: `as ${basis}` });

/**
 * Front Door's operation durations by kind and action. Where the record is silent, a figure is taken from the nearest
 * measured one and says so (`basis`): an update or delete of a kind from the same action on routes (the one kind
 * measured for all three) or from the kind's own create. Rule set create and update are not long-running in the spec
 * and never use theirs.
 */
export const AZURE_OPERATION_DURATIONS: readonly KindTimings[] = [
  { kind: 'profile', kindKey: AFD.profile, create: PROFILE_CREATE, update: PROFILE_UPDATE, delete: PROFILE_DELETE },
  {
    kind: 'endpoint',
    kindKey: AFD.endpoint,
    create: ENDPOINT_CREATE,
    update: as(ENDPOINT_CREATE, 'endpoint create'),
    delete: as(ROUTE_DELETE, 'route delete'),
  },
  {
    kind: 'origin group',
    kindKey: AFD.originGroup,
    create: WITHIN_REQUEST,
    update: as(ORIGIN_CREATE, 'origin create'),
    delete: ORIGIN_GROUP_DELETE,
  },
  { kind: 'origin', kindKey: AFD.origin, create: ORIGIN_CREATE, update: as(ORIGIN_CREATE, 'origin create'), delete: as(ROUTE_DELETE, 'route delete') },
  { kind: 'route', kindKey: AFD.route, create: ROUTE_CREATE, update: ROUTE_UPDATE, delete: ROUTE_DELETE },
  {
    kind: 'rule set',
    kindKey: AFD.ruleSet,
    create: NOT_LONG_RUNNING,
    update: NOT_LONG_RUNNING,
    delete: as(ROUTE_DELETE, 'route delete'),
  },
  {
    kind: 'rule',
    kindKey: AFD.rule,
    create: as(ROUTE_CREATE, 'route create'),
    update: as(ROUTE_UPDATE, 'route update'),
    delete: as(ROUTE_DELETE, 'route delete'),
  },
  {
    kind: 'security policy',
    kindKey: AFD.securityPolicy,
    create: as(ROUTE_CREATE, 'route create'),
    update: as(ROUTE_UPDATE, 'route update'),
    delete: as(ROUTE_DELETE, 'route delete'),
  },
  {
    kind: 'custom domain',
    kindKey: AFD.customDomain,
    create: CUSTOM_DOMAIN_CREATE,
    update: as(CUSTOM_DOMAIN_CREATE, 'custom domain create'),
    delete: as(ROUTE_DELETE, 'route delete'),
  },
  {
    kind: 'secret',
    kindKey: AFD.secret,
    create: as(ORIGIN_CREATE, 'origin create'),
    update: as(ORIGIN_CREATE, 'origin create'),
    delete: as(ROUTE_DELETE, 'route delete'),
  },
];

/**
 * Front Door's Retry-After: 10 s on the 201/202 that starts an operation, none on the status polls (so a client polls
 * at its own interval after the first wait).
 */
export const AZURE_RETRY_AFTER = { acceptedSeconds: 10, pollSeconds: undefined } as const;

export interface OperationTimingSettings {
  profile: OperationTimingsProfile;
  /** `fast`'s duration of every operation; `azure`'s for the kinds and POST actions it has no figure for. */
  lroDelayMs: number;
  /** `fast`'s Retry-After on running operations; undefined sends none. */
  lroRetryAfterSeconds?: number;
  /** Seeds `azure`'s jitter: one seed, one sequence of durations. */
  seed: number;
}

/** The timing the emulator runs with. */
export function operationTiming(settings: OperationTimingSettings): OperationTiming {
  if (settings.profile === 'fast') {
    return {
      ends: 'timer',
      durationMs: () => settings.lroDelayMs,
      operationHeadersWhenEnded: true,
      ...(settings.lroRetryAfterSeconds === undefined
        ? {}
        : { acceptedRetryAfterSeconds: settings.lroRetryAfterSeconds, pollRetryAfterSeconds: settings.lroRetryAfterSeconds }),
    };
  }
  const random = seededRandom(settings.seed);
  const byKind = new Map(AZURE_OPERATION_DURATIONS.map((timings) => [timings.kindKey, timings]));
  return {
    ends: 'clock',
    durationMs: (kindKey, action) => {
      const bounds = action === undefined ? undefined : byKind.get(kindKey)?.[action];
      if (bounds === undefined) return settings.lroDelayMs;
      return Math.round(bounds.minMs + random() * (bounds.maxMs - bounds.minMs));
    },
    acceptedRetryAfterSeconds: AZURE_RETRY_AFTER.acceptedSeconds,
    // Front Door answered the origin group create that ended within the request 201 `Succeeded` with no operation URLs.
    operationHeadersWhenEnded: false,
  };
}
