import type {
  GlobalGateway,
  HostRouting,
  ModelBackend,
  ModelFilter,
  ModelListener,
  ModelMatch,
  ModelOrigin,
  ModelRoute,
  ModelRule,
  NameValue,
  RuleBackend,
  SourceRef,
  SplitEntry,
  TrafficSplit,
} from './model-types.js';
import { validateModel } from './model-validation.js';
import { compareText } from '@fleet-gateway/api-types';

export type NormalizeResult = { readonly ok: true; readonly model: GlobalGateway } | { readonly ok: false; readonly errors: readonly string[] };

// Each node is rebuilt field by field, in one fixed key order, so that the copy is deep, drops anything that is
// not part of the model, and serializes to the same text however the input was built (or parsed).

const byName = (a: NameValue, b: NameValue) => compareText(a.name, b.name) || compareText(a.value, b.value);
const nameValues = (list: readonly NameValue[], sort: boolean) => {
  const copy = list.map((nv) => ({ name: nv.name, value: nv.value }));
  return sort ? copy.sort(byName) : copy;
};
const source = (s: SourceRef): SourceRef => ({ kind: s.kind, namespace: s.namespace, name: s.name, section: s.section });
const ruleBackends = (list: readonly RuleBackend[]) =>
  list.map((b) => ({ backend: b.backend, weight: b.weight })).sort((a, b) => compareText(a.backend, b.backend));

function listener(l: ModelListener): ModelListener {
  const tls = l.tls && { certificate: l.tls.certificate, minimumTlsVersion: l.tls.minimumTlsVersion };
  return { name: l.name, protocol: l.protocol, port: l.port, hostname: l.hostname, tls, source: source(l.source) };
}

function match(m: ModelMatch): ModelMatch {
  return {
    path: { type: m.path.type, value: m.path.value },
    method: m.method,
    headers: nameValues(m.headers, true),
    queryParams: nameValues(m.queryParams, true),
  };
}

function filter(f: ModelFilter): ModelFilter {
  switch (f.type) {
    case 'RequestHeaderModifier':
    case 'ResponseHeaderModifier':
      return { type: f.type, set: nameValues(f.set, false), add: nameValues(f.add, false), remove: [...f.remove] };
    case 'RequestRedirect':
      return { type: f.type, scheme: f.scheme, hostname: f.hostname, path: f.path, statusCode: f.statusCode };
    case 'URLRewrite':
      return { type: f.type, path: { type: f.path.type, value: f.path.value } };
    case 'CORS':
      return {
        type: f.type,
        exactOrigins: [...f.exactOrigins],
        wildcardOrigins: [...f.wildcardOrigins],
        anyOrigin: f.anyOrigin,
        allowCredentials: f.allowCredentials,
        allowMethods: f.allowMethods,
        allowHeaders: f.allowHeaders,
        exposeHeaders: f.exposeHeaders,
        maxAge: f.maxAge,
      };
  }
}

function rule(r: ModelRule): ModelRule {
  return {
    index: r.index,
    matches: r.matches.map(match),
    filters: r.filters.map(filter),
    backends: ruleBackends(r.backends),
    split: r.split,
    withdrawn: r.withdrawn,
    held: r.held,
    source: source(r.source),
  };
}

function route(r: ModelRoute): ModelRoute {
  return {
    namespace: r.namespace,
    name: r.name,
    creationTimestamp: r.creationTimestamp,
    listeners: [...new Set(r.listeners)].sort(compareText),
    hostnames: [...new Set(r.hostnames)].sort(compareText),
    rules: r.rules.map(rule).sort((a, b) => a.index - b.index),
    source: source(r.source),
  };
}

function origin(o: ModelOrigin): ModelOrigin {
  const pl = o.privateLink && {
    resourceId: o.privateLink.resourceId,
    location: o.privateLink.location,
    requestMessage: o.privateLink.requestMessage,
    connectionState: o.privateLink.connectionState,
  };
  return {
    cluster: o.cluster,
    state: o.state,
    unknownReason: o.unknownReason,
    exportWeight: o.exportWeight,
    connectivity: o.connectivity,
    address: o.address,
    privateLink: pl,
    source: source(o.source),
  };
}

function backend(b: ModelBackend): ModelBackend {
  return {
    key: b.key,
    namespace: b.namespace,
    name: b.name,
    port: b.port,
    appProtocol: b.appProtocol,
    connectivity: b.connectivity,
    probe: { path: b.probe.path, protocol: b.probe.protocol, requestType: b.probe.requestType, intervalSeconds: b.probe.intervalSeconds },
    latencySensitivityMilliseconds: b.latencySensitivityMilliseconds,
    originHostHeader: b.originHostHeader,
    origins: b.origins.map(origin).sort((x, y) => compareText(x.cluster, y.cluster)),
    source: source(b.source),
  };
}

function split(s: TrafficSplit): TrafficSplit {
  const entry = (e: SplitEntry): SplitEntry => ({ backend: e.backend, cluster: e.cluster, state: e.state, weight: e.weight });
  return {
    key: s.key,
    backends: ruleBackends(s.backends),
    origins: s.origins.map(entry).sort((a, b) => compareText(a.backend, b.backend) || compareText(a.cluster, b.cluster)),
  };
}

function host(h: HostRouting): HostRouting {
  return {
    protocol: h.protocol,
    hostname: h.hostname,
    listener: h.listener,
    paths: h.paths
      .map((p) => ({
        path: { kind: p.path.kind, value: p.path.value },
        candidates: p.candidates.map((c) => ({
          route: c.route,
          rule: c.rule,
          match: c.match,
          method: c.method,
          headers: nameValues(c.headers, true),
          queryParams: nameValues(c.queryParams, true),
        })),
      }))
      .sort((a, b) => compareText(a.path.value, b.path.value) || compareText(a.path.kind, b.path.kind)),
  };
}

/**
 * Deep-copies, validates and orders a model so that the same objects in any input order give byte-identical
 * output. Orders that carry meaning are kept: rule and match indices, filter order, precedence of candidates.
 */
export function normalize(model: GlobalGateway): NormalizeResult {
  const { gateway: g, config: c } = model;
  const waf = c.wafPolicy && {
    id: c.wafPolicy.id,
    subscriptionId: c.wafPolicy.subscriptionId,
    resourceGroup: c.wafPolicy.resourceGroup,
    name: c.wafPolicy.name,
  };
  const copy: GlobalGateway = {
    gateway: { namespace: g.namespace, name: g.name, uid: g.uid, generation: g.generation },
    config: { sku: c.sku, wafPolicy: waf, originResponseTimeoutSeconds: c.originResponseTimeoutSeconds, deletionPolicy: c.deletionPolicy },
    listeners: model.listeners.map(listener).sort((a, b) => compareText(a.name, b.name)),
    routes: model.routes.map(route).sort((a, b) => compareText(a.namespace, b.namespace) || compareText(a.name, b.name)),
    backends: model.backends.map(backend).sort((a, b) => compareText(a.namespace, b.namespace) || compareText(a.name, b.name) || a.port - b.port),
    splits: model.splits.map(split).sort((a, b) => compareText(a.key, b.key)),
    routing: model.routing.map(host).sort((a, b) => compareText(a.protocol, b.protocol) || compareText(a.hostname, b.hostname)),
    source: source(model.source),
  };
  const errors = validateModel(copy);
  return errors.length > 0 ? { ok: false, errors } : { ok: true, model: copy };
}
