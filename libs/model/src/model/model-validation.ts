import type { GlobalGateway, ModelBackend, ModelRoute, TrafficSplit } from './model-types.js';
import { backendKey, namespacedName } from './names.js';
import { MAX_ROUTE_WEIGHT } from './weights.js';

/** A structural error, with the routes (`namespace/name`) it is about; none when it is the Gateway's own. */
export interface ModelError {
  readonly message: string;
  readonly routes: readonly string[];
}

/** Collects errors; each is attributed to the routes of the node being checked (set per node by the caller). */
class ErrorSink {
  readonly errors: ModelError[] = [];
  routes: readonly string[] = [];

  push(message: string): void {
    this.errors.push({ message, routes: this.routes });
  }
}

function inRange(value: number | undefined, min: number, max: number): boolean {
  return value !== undefined && Number.isInteger(value) && value >= min && value <= max;
}

function duplicates(values: readonly string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(values.filter((v) => (seen.has(v) ? true : (seen.add(v), false))))];
}

function validateBackend(b: ModelBackend, errors: ErrorSink): void {
  const where = `backend ${b.key}`;
  if (!b.namespace || !b.name) errors.push(`${where}: namespace and name are required`);
  if (!inRange(b.port, 1, 65535)) errors.push(`${where}: port ${b.port} is outside 1..65535`);
  if (b.key !== backendKey(b.namespace, b.name, b.port)) errors.push(`${where}: key does not match namespace/name:port`);
  if (b.origins.length === 0) errors.push(`${where}: has no origins`);
  for (const c of duplicates(b.origins.map((o) => o.cluster))) errors.push(`${where}: duplicate origin cluster ${c}`);
  for (const o of b.origins) {
    if (!o.cluster) errors.push(`${where}: origin with an empty cluster`);
    if (o.state === 'known' && !inRange(o.exportWeight, 1, 1000)) {
      errors.push(`${where}: origin ${o.cluster} export weight ${o.exportWeight} is outside 1..1000`);
    }
    if (o.state === 'known' && !o.address) errors.push(`${where}: known origin ${o.cluster} has no address`);
  }
}

interface Lookups {
  readonly listeners: ReadonlySet<string>;
  readonly backends: ReadonlyMap<string, ModelBackend>;
  /** The origin clusters of each backend. */
  readonly origins: ReadonlyMap<string, ReadonlySet<string>>;
  readonly splits: ReadonlySet<string>;
}

function validateRoute(r: ModelRoute, lookups: Lookups, errors: ErrorSink): void {
  const where = `route ${namespacedName(r.namespace, r.name)}`;
  if (!r.namespace || !r.name) errors.push(`${where}: namespace and name are required`);
  for (const l of r.listeners) if (!lookups.listeners.has(l)) errors.push(`${where}: unknown listener ${l}`);
  for (const rule of r.rules) {
    const rw = `${where} rule ${rule.index}`;
    for (const ref of rule.backends) {
      if (!lookups.backends.has(ref.backend)) errors.push(`${rw}: unknown backend ${ref.backend}`);
      if (!inRange(ref.weight, 0, MAX_ROUTE_WEIGHT)) errors.push(`${rw}: route weight ${ref.weight} is outside 0..${MAX_ROUTE_WEIGHT}`);
    }
    for (const d of duplicates(rule.backends.map((b) => b.backend))) errors.push(`${rw}: duplicate backend ${d}`);
    if (rule.split !== undefined && !lookups.splits.has(rule.split)) errors.push(`${rw}: unknown split ${rule.split}`);
  }
}

function validateSplit(s: TrafficSplit, lookups: Lookups, errors: ErrorSink): void {
  const where = `split ${s.key}`;
  for (const ref of s.backends) if (!lookups.backends.has(ref.backend)) errors.push(`${where}: unknown backend ${ref.backend}`);
  // Nested lookups rather than joined keys: a split lists every origin of its backends, thousands in a large Gateway.
  const seen = new Map<string, Set<string>>();
  for (const o of s.origins) {
    const clusters = seen.get(o.backend) ?? new Set<string>();
    seen.set(o.backend, clusters);
    if (clusters.has(o.cluster)) errors.push(`${where}: duplicate entry ${o.backend}@${o.cluster}`);
    clusters.add(o.cluster);
    if (!lookups.origins.get(o.backend)?.has(o.cluster)) errors.push(`${where}: entry ${o.backend}@${o.cluster} names no origin`);
    if (o.state === 'enabled' ? !inRange(o.weight, 1, 1000) : o.weight !== undefined) {
      errors.push(`${where}: entry ${o.backend}@${o.cluster} (${o.state}) has weight ${o.weight}`);
    }
  }
}

function routesBy(model: GlobalGateway, keysOf: (rule: ModelRoute['rules'][number]) => readonly string[]): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  for (const r of model.routes) {
    const key = namespacedName(r.namespace, r.name);
    for (const k of new Set(r.rules.flatMap(keysOf))) routes.set(k, [...(routes.get(k) ?? []), key]);
  }
  return routes;
}

/**
 * Structural rules of the model (upstream §2.4, plus the references this model adds), each error attributed to the
 * routes it is about (a backend's or split's errors to the routes using it), so that resolve can refuse those routes
 * alone; empty when valid.
 */
export function findModelErrors(model: GlobalGateway): ModelError[] {
  const errors = new ErrorSink();
  if (!model.gateway.namespace || !model.gateway.name) errors.push('gateway: namespace and name are required');
  for (const d of duplicates(model.listeners.map((l) => l.name))) errors.push(`duplicate listener ${d}`);
  for (const l of model.listeners) {
    if (!inRange(l.port, 1, 65535)) errors.push(`listener ${l.name}: port ${l.port} is outside 1..65535`);
  }
  const routesOfBackend = routesBy(model, (rule) => rule.backends.map((b) => b.backend));
  const routesOfSplit = routesBy(model, (rule) => (rule.split === undefined ? [] : [rule.split]));
  for (const d of duplicates(model.routes.map((r) => namespacedName(r.namespace, r.name)))) {
    errors.routes = [d];
    errors.push(`duplicate route ${d}`);
  }
  for (const d of duplicates(model.backends.map((b) => b.key))) {
    errors.routes = routesOfBackend.get(d) ?? [];
    errors.push(`duplicate backend ${d}`);
  }
  for (const b of model.backends) {
    errors.routes = routesOfBackend.get(b.key) ?? [];
    validateBackend(b, errors);
  }
  const lookups: Lookups = {
    listeners: new Set(model.listeners.map((l) => l.name)),
    backends: new Map(model.backends.map((b) => [b.key, b])),
    origins: new Map(model.backends.map((b) => [b.key, new Set(b.origins.map((o) => o.cluster))])),
    splits: new Set(model.splits.map((s) => s.key)),
  };
  for (const d of duplicates(model.splits.map((s) => s.key))) {
    errors.routes = routesOfSplit.get(d) ?? [];
    errors.push(`duplicate split ${d}`);
  }
  for (const s of model.splits) {
    errors.routes = routesOfSplit.get(s.key) ?? [];
    validateSplit(s, lookups, errors);
  }
  for (const r of model.routes) {
    errors.routes = [namespacedName(r.namespace, r.name)];
    validateRoute(r, lookups, errors);
  }
  const rules = new Map(model.routes.map((r) => [namespacedName(r.namespace, r.name), new Set(r.rules.map((rule) => rule.index))]));
  for (const host of model.routing) {
    for (const path of host.paths) {
      for (const c of path.candidates) {
        errors.routes = [c.route];
        if (!rules.get(c.route)?.has(c.rule)) errors.push(`routing ${host.protocol} ${host.hostname}: unknown rule ${c.route} ${c.rule}`);
      }
    }
  }
  return errors.errors;
}

/** Every structural error of a model, empty when valid. */
export function validateModel(model: GlobalGateway): string[] {
  return findModelErrors(model).map((e) => e.message);
}
