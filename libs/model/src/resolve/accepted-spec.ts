import { createHash } from 'node:crypto';
import type { HTTPRoute } from '@fleet-gateway/api-types';
import type { HubInputs } from './hub-inputs.js';
import { namespacedName } from '../model/names.js';
import type { ResolveResult } from './resolve-result.js';

/**
 * The last generation of a route that a Gateway accepted in full and handed to its provider, kept on the route itself:
 * one annotation per Gateway (a route may have several parents, each judging it on its own). On the route, the record
 * lives and dies with it, survives an agent restart, and needs no object of its own; outside the `afd-` prefix, the
 * route's annotation contract ignores it.
 *
 * Why a copy of the spec rather than freezing AFD resources: AFD routes, rule sets and origin groups are shared by every
 * route deciding a host's paths, and nothing in Azure says which Kubernetes route a pattern came from; after an edit
 * (`/b` to `/b*`), the current spec no longer names what was programmed. Resolving the accepted spec again reproduces
 * the exact programmed model (so zero writes), and lets every change outside the route's spec (a ServiceImport or
 * ReferenceGrant gone, allowedRoutes narrowed) act on it exactly as on any route.
 */
export const ACCEPTED_SPEC_PREFIX = 'networking.fleet.azure.com/accepted-spec.';

export interface AcceptedSpec {
  /** `namespace/name` of the Gateway that accepted it. */
  readonly gateway: string;
  /** The route's UID: a route deleted and made again under its name starts without a record. */
  readonly uid: string;
  readonly generation: number;
  readonly spec: HTTPRoute['spec'];
}

/** The annotation key of one Gateway's record: a hash, since a key's name part allows 63 characters. */
export function acceptedSpecKey(gateway: string): string {
  return `${ACCEPTED_SPEC_PREFIX}${createHash('sha256').update(gateway).digest('hex').slice(0, 16)}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isList = (value: unknown): boolean => value === undefined || (Array.isArray(value) && value.every(isObject));
const isTexts = (value: unknown): boolean => value === undefined || (Array.isArray(value) && value.every((v) => typeof v === 'string'));

/** One record as written, or undefined when it does not fit: the annotation is writable by whoever may edit the route. */
function parseRecord(route: HTTPRoute, raw: string): AcceptedSpec | undefined {
  let record: unknown;
  try {
    record = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isObject(record) || typeof record.gateway !== 'string' || record.uid !== route.metadata.uid || !Number.isSafeInteger(record.generation))
    return undefined;
  const spec = record.spec;
  // The shape the API server's schema would have checked, as far as resolve relies on it.
  if (!isObject(spec) || !isList(spec.parentRefs) || !isTexts(spec.hostnames) || !isList(spec.rules)) return undefined;
  const rulesFit = ((spec.rules ?? []) as Record<string, unknown>[]).every((rule) => isList(rule.matches) && isList(rule.filters) && isList(rule.backendRefs));
  return rulesFit ? (record as unknown as AcceptedSpec) : undefined;
}

/** The record the Gateway keeps on the route, or undefined when there is none usable. */
export function readAcceptedSpec(route: HTTPRoute, gateway: string): AcceptedSpec | undefined {
  const raw = route.metadata.annotations?.[acceptedSpecKey(gateway)];
  const record = raw === undefined ? undefined : parseRecord(route, raw);
  return record?.gateway === gateway ? record : undefined;
}

/** Every Gateway's record on the route: what it may serve, so its backends are among what the hub watches for it. */
export function acceptedSpecsOf(route: HTTPRoute): AcceptedSpec[] {
  return Object.entries(route.metadata.annotations ?? {}).flatMap(([key, raw]) =>
    key.startsWith(ACCEPTED_SPEC_PREFIX) ? (parseRecord(route, raw) ?? []) : [],
  );
}

/** The annotation value recording the route's current generation as accepted by the Gateway. */
export function acceptedSpecValue(route: HTTPRoute, gateway: string): string {
  const record: AcceptedSpec = { gateway, uid: route.metadata.uid ?? '', generation: route.metadata.generation ?? 0, spec: route.spec };
  return JSON.stringify(record);
}

/**
 * The routes whose record the Gateway must write: their current generation is accepted in full (every condition of
 * each parent entry True, none partially invalid), the model programs them, and their record names an older
 * generation or none. Called once the provider has been given the model.
 */
export function acceptedSpecsDue(inputs: HubInputs, result: ResolveResult): HTTPRoute[] {
  const { model } = result;
  if (!model) return [];
  const gateway = namespacedName(model.gateway.namespace, model.gateway.name);
  const programmed = new Set(model.routes.map((r) => namespacedName(r.namespace, r.name)));
  const accepted = new Set(
    result.verdicts.routes
      .filter((v) => v.parents.length > 0 && v.parents.every((p) => p.conditions.every((c) => c.status === 'True' && c.type !== 'PartiallyInvalid')))
      .map((v) => namespacedName(v.namespace, v.name)),
  );
  return (inputs.httpRoutes ?? []).filter((route) => {
    const key = namespacedName(route.metadata.namespace ?? '', route.metadata.name ?? '');
    const recorded = readAcceptedSpec(route, gateway)?.generation ?? -1;
    return accepted.has(key) && programmed.has(key) && recorded < (route.metadata.generation ?? 0);
  });
}
