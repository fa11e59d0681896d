import {
  ANY_HOSTNAME,
  apportionWeights,
  type GlobalGateway,
  type HostRouting,
  type ModelBackend,
  type ModelFilter,
  type ModelMatch,
  type ModelOrigin,
  type ModelRoute,
  type ModelRule,
  type PathKey,
  type PrivateLinkConnectionState,
  type RoutingCandidate,
  type RuleBackend,
  type SplitEntry,
  type TrafficSplit,
} from '@fleet-gateway/model';
import { compareText } from '../plan/canonical.js';

/**
 * Test support: GlobalGateway values built from a compact description, so that tests state only what they vary.
 * Routing follows Gateway API precedence for the cases tests use (Exact before PathPrefix, longer prefixes first,
 * more conditions first, then route and rule order).
 */
export interface ClusterFixture {
  readonly name: string;
  readonly weight?: number;
  readonly unknown?: boolean;
  readonly address?: string;
  readonly privateLink?: { readonly state?: PrivateLinkConnectionState; readonly requestMessage?: string | null };
}

export interface BackendFixture {
  readonly name: string;
  readonly port?: number;
  readonly clusters: readonly ClusterFixture[];
  readonly probePath?: string;
  readonly probeProtocol?: 'Http' | 'Https';
  readonly appProtocol?: 'http' | 'https';
  readonly latency?: number;
  readonly hostHeader?: string;
}

export interface RuleFixture {
  /** PathPrefix values (default `/`), or explicit matches. */
  readonly paths?: readonly string[];
  readonly matches?: readonly ModelMatch[];
  readonly backends: readonly { readonly name: string; readonly weight?: number }[];
  readonly filters?: readonly ModelFilter[];
}

export interface RouteFixture {
  readonly name: string;
  readonly hostnames?: readonly string[];
  readonly rules: readonly RuleFixture[];
}

export interface GatewayFixture {
  readonly name?: string;
  readonly uid?: string;
  readonly sku?: 'Standard_AzureFrontDoor' | 'Premium_AzureFrontDoor';
  readonly wafPolicyId?: string;
  readonly protocols?: readonly ('HTTP' | 'HTTPS')[];
  readonly backends: readonly BackendFixture[];
  readonly routes: readonly RouteFixture[];
}

const NS = 'store';

function backendKey(name: string, port = 8080): string {
  return `${NS}/${name}:${port}`;
}

function buildOrigin(backend: BackendFixture, cluster: ClusterFixture, index: number, connectivity: ModelOrigin['connectivity']): ModelOrigin {
  const source = { kind: 'InternalServiceExport' as const, namespace: `fleet-member-${cluster.name}`, name: `${NS}-${backend.name}` };
  if (cluster.unknown) return { cluster: cluster.name, state: 'unknown', unknownReason: 'the member marked its Azure data stale', connectivity, source };
  const address = cluster.address ?? `10.${index + 1}.0.${backend.name.length}`;
  const pl = cluster.privateLink;
  return {
    cluster: cluster.name,
    state: 'known',
    exportWeight: cluster.weight ?? 1,
    connectivity,
    address,
    ...(pl
      ? {
          privateLink: {
            resourceId: `/subscriptions/00000000-0000-4000-8000-000000000001/resourceGroups/mc-${cluster.name}/providers/Microsoft.Network/privateLinkServices/pls-${backend.name}`,
            location: 'eastus2',
            ...(pl.requestMessage === null ? {} : { requestMessage: pl.requestMessage ?? `fleet:${cluster.name}:${backend.name}:request` }),
            connectionState: pl.state ?? 'Pending',
          },
        }
      : {}),
    source,
  };
}

function buildBackend(backend: BackendFixture): ModelBackend {
  const privateLink = backend.clusters.some((c) => c.privateLink);
  const connectivity = backend.clusters.every((c) => c.unknown) ? 'unknown' : privateLink ? 'private-link' : 'public';
  return {
    key: backendKey(backend.name, backend.port),
    namespace: NS,
    name: backend.name,
    port: backend.port ?? 8080,
    ...(backend.appProtocol ? { appProtocol: backend.appProtocol } : {}),
    connectivity,
    probe: { path: backend.probePath ?? '/healthz', protocol: backend.probeProtocol ?? 'Http', requestType: 'HEAD', intervalSeconds: 30 },
    latencySensitivityMilliseconds: backend.latency ?? 1000,
    ...(backend.hostHeader ? { originHostHeader: backend.hostHeader } : {}),
    origins: backend.clusters.map((c, i) => buildOrigin(backend, c, i, connectivity)),
    source: { kind: 'ServiceImport', namespace: NS, name: backend.name },
  };
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** The model's split for a backend set: weights reduced by their common divisor, shares apportioned to 1..1000. */
function splitOf(refs: readonly RuleBackend[], backends: ReadonlyMap<string, ModelBackend>): TrafficSplit {
  const divisor = refs.reduce((d, r) => gcd(d, r.weight), 0) || 1;
  const reduced = [...refs].sort((a, b) => compareText(a.backend, b.backend)).map((r) => ({ backend: r.backend, weight: r.weight / divisor }));
  const total = reduced.reduce((sum, r) => sum + r.weight, 0);
  const entries = reduced.flatMap((ref) => {
    const origins = backends.get(ref.backend)?.origins ?? [];
    const exportTotal = origins.reduce((sum, o) => sum + (o.exportWeight ?? 0), 0);
    return origins.map((o) => ({ ref, o, share: total > 0 && o.state === 'known' ? (ref.weight / total) * ((o.exportWeight ?? 0) / exportTotal) : 0 }));
  });
  const weights = apportionWeights(entries.map((e) => e.share));
  const origins: SplitEntry[] = entries.map(({ ref, o }, i) => {
    if (o.state === 'unknown') return { backend: ref.backend, cluster: o.cluster, state: 'unknown' };
    const weight = weights[i] ?? 0;
    return weight > 0
      ? { backend: ref.backend, cluster: o.cluster, state: 'enabled', weight }
      : { backend: ref.backend, cluster: o.cluster, state: 'disabled' };
  });
  return { key: reduced.map((r) => `${r.backend}=${r.weight}`).join(','), backends: reduced, origins };
}

function ruleTraffic(
  rule: RuleFixture,
  refs: readonly RuleBackend[],
  backends: ReadonlyMap<string, ModelBackend>,
  splits: Map<string, TrafficSplit>,
): Pick<ModelRule, 'split' | 'withdrawn'> {
  if ((rule.filters ?? []).some((f) => f.type === 'RequestRedirect')) return {};
  if (rule.backends.length === 0) return { withdrawn: 'NoBackends' };
  if (refs.length === 0) return { withdrawn: 'NoValidBackends' };
  const split = splitOf(refs, backends);
  splits.set(split.key, split);
  return split.backends.every((b) => b.weight === 0) ? { split: split.key, withdrawn: 'AllBackendWeightsZero' } : { split: split.key };
}

function buildRoute(route: RouteFixture, backends: ReadonlyMap<string, ModelBackend>, splits: Map<string, TrafficSplit>): ModelRoute {
  return {
    namespace: NS,
    name: route.name,
    listeners: ['http'],
    hostnames: route.hostnames ?? [ANY_HOSTNAME],
    rules: route.rules.map((rule, index) => {
      const refs = rule.backends.filter((b) => backends.has(backendKey(b.name))).map((b) => ({ backend: backendKey(b.name), weight: b.weight ?? 1 }));
      const matches = rule.matches ?? (rule.paths ?? ['/']).map((value) => ({ path: { type: 'PathPrefix' as const, value }, headers: [], queryParams: [] }));
      return {
        index,
        matches,
        filters: rule.filters ?? [],
        backends: refs,
        ...ruleTraffic(rule, refs, backends, splits),
        source: { kind: 'HTTPRoute', namespace: NS, name: route.name, section: `rule/${index}` },
      };
    }),
    source: { kind: 'HTTPRoute', namespace: NS, name: route.name },
  };
}

interface Entry extends RoutingCandidate {
  readonly order: number;
  readonly m: ModelMatch;
}

function covers(m: ModelMatch, key: PathKey): boolean {
  if (m.path.type === 'Exact') return key.kind === 'Exact' && key.value === m.path.value;
  return m.path.value === '/' || key.value === m.path.value || key.value.startsWith(`${m.path.value}/`);
}

function precedence(a: Entry, b: Entry): number {
  const rank = (e: Entry) => (e.m.path.type === 'Exact' ? Number.MAX_SAFE_INTEGER : e.m.path.value.length);
  const conditions = (e: Entry) => (e.method ? 1000 : 0) + e.headers.length * 10 + e.queryParams.length;
  return rank(b) - rank(a) || conditions(b) - conditions(a) || a.order - b.order;
}

function buildRouting(routes: readonly ModelRoute[], protocols: readonly ('HTTP' | 'HTTPS')[]): HostRouting[] {
  const hosts = new Map<string, Entry[]>();
  let order = 0;
  for (const route of routes) {
    for (const hostname of route.hostnames) {
      const entries = hosts.get(hostname) ?? [];
      for (const rule of route.rules) {
        rule.matches.forEach((m, match) => {
          entries.push({
            route: `${NS}/${route.name}`,
            rule: rule.index,
            match,
            ...(m.method ? { method: m.method } : {}),
            headers: m.headers,
            queryParams: m.queryParams,
            order: order++,
            m,
          });
        });
      }
      hosts.set(hostname, entries);
    }
  }
  return protocols.flatMap((protocol) =>
    [...hosts.entries()].map(([hostname, entries]) => {
      const keys = new Map<string, PathKey>();
      for (const e of entries) {
        keys.set(`${e.m.path.value} Exact`, { kind: 'Exact', value: e.m.path.value });
        if (e.m.path.type === 'PathPrefix') keys.set(`${e.m.path.value} Subtree`, { kind: 'Subtree', value: e.m.path.value });
      }
      const paths = [...keys.entries()]
        .sort(([a], [b]) => compareText(a, b))
        .map(([, path]) => {
          const sorted = entries.filter((e) => covers(e.m, path)).sort(precedence);
          const firstPlain = sorted.findIndex((e) => !e.method && e.headers.length === 0 && e.queryParams.length === 0);
          const kept = firstPlain === -1 ? sorted : sorted.slice(0, firstPlain + 1);
          return { path, candidates: kept.map(({ order: _o, m: _m, ...candidate }) => candidate) };
        });
      return { protocol, hostname, listener: 'http', paths };
    }),
  );
}

export function buildGateway(fixture: GatewayFixture): GlobalGateway {
  const name = fixture.name ?? 'edge';
  const backends = fixture.backends.map(buildBackend);
  const byKey = new Map(backends.map((b) => [b.key, b]));
  const splits = new Map<string, TrafficSplit>();
  const routes = fixture.routes.map((r) => buildRoute(r, byKey, splits));
  const source = { kind: 'Gateway' as const, namespace: NS, name };
  return {
    gateway: { namespace: NS, name, uid: fixture.uid ?? '6f1c2d3e-0000-4000-8000-000000000001', generation: 1 },
    config: {
      sku: fixture.sku ?? 'Premium_AzureFrontDoor',
      originResponseTimeoutSeconds: 60,
      deletionPolicy: 'Delete',
      ...(fixture.wafPolicyId ? { wafPolicy: wafPolicyOf(fixture.wafPolicyId) } : {}),
    },
    listeners: [{ name: 'http', protocol: 'HTTP', port: 80, hostname: ANY_HOSTNAME, source: { ...source, section: 'http' } }],
    routes,
    backends,
    splits: [...splits.values()],
    routing: buildRouting(routes, fixture.protocols ?? ['HTTP']),
    source,
  };
}

function wafPolicyOf(id: string): NonNullable<GlobalGateway['config']['wafPolicy']> {
  const segments = id.split('/');
  return { id, subscriptionId: segments[2] ?? '', resourceGroup: segments[4] ?? '', name: segments[8] ?? '' };
}

/** `count` backends with `clustersEach` public clusters, and one route per backend with a distinct path prefix. */
export function largeGateway(count: number, clustersEach: number, sku: GatewayFixture['sku'] = 'Premium_AzureFrontDoor'): GlobalGateway {
  const backends = Array.from({ length: count }, (_, i) => ({
    name: `svc${i}`,
    clusters: Array.from({ length: clustersEach }, (_, c) => ({ name: `member-${c + 1}`, weight: c + 1, address: `10.${c}.${i}.4` })),
  }));
  const routes = backends.map((b, i) => ({ name: `route${i}`, rules: [{ paths: [`/svc${i}`], backends: [{ name: b.name }] }] }));
  return buildGateway({ sku, backends, routes });
}
