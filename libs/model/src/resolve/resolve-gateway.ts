import { isDeepStrictEqual } from 'node:util';
import { gatewayContract, parseGatewayAnnotations, readAnnotation, type AnnotationResult, type GatewayConfig } from '@fleet-gateway/annotations';
import { backendRefResolver } from './backend-refs.js';
import { joinMessages } from '../verdicts/conditions.js';
import { gatewayClassVerdict, gatewayConditions } from '../verdicts/gateway-verdict.js';
import type { HubInputs } from './hub-inputs.js';
import { indexInputs } from './input-index.js';
import { resolveListeners, type ListenerResult } from './listeners.js';
import { resolveListenerSets } from './listener-sets.js';
import { attachedListenerSets, listenerSetVerdicts } from '../verdicts/listener-set-verdict.js';
import type { GlobalGateway, HostRouting, ModelListener, ModelRoute, TrafficSplit } from '../model/model-types.js';
import { CONTROLLER_NAME, namespacedName } from '../model/names.js';
import { compareText } from '@fleet-gateway/api-types';
import { findModelErrors } from '../model/model-validation.js';
import { normalize } from '../model/normalize.js';
import type { ResolveResult } from './resolve-result.js';
import type { RouteResolution } from './route-resolution.js';
import { resolveServing } from './route-serving.js';
import { routeVerdict } from '../verdicts/route-verdict.js';
import { buildRouting, type HostAttachment } from '../model/routing-table.js';
import { trafficSplits } from '../model/traffic-split.js';
import type { ListenerVerdict, ParentRefAsWritten, RouteVerdict } from '../verdicts/verdict-types.js';

/** Routable attachments of a route: listeners that made it into the model, with the route's kept matches. */
function hostAttachments(res: RouteResolution): HostAttachment[] {
  if (res.annotationProblem || res.keptRules.length === 0) return [];
  const byListener = new Map<string, { listener: ModelListener; hostnames: Set<string> }>();
  for (const { attachment } of res.parents) {
    if (!attachment.ok) continue;
    for (const { listener, hostnames } of attachment.attachments) {
      if (!listener.model || hostnames.length === 0) continue;
      const entry = byListener.get(listener.id) ?? { listener: listener.model, hostnames: new Set<string>() };
      for (const h of hostnames) entry.hostnames.add(h);
      byListener.set(listener.id, entry);
    }
  }
  const created = res.route.metadata.creationTimestamp;
  const matches = res.keptRules.flatMap((rule) => rule.matches.map((match, matchIndex) => ({ route: res.key, created, rule: rule.index, matchIndex, match })));
  return [...byListener.values()].map(({ listener, hostnames }) => ({
    protocol: listener.protocol,
    listener: listener.name,
    hostnames: [...hostnames],
    matches,
  }));
}

/**
 * How many routes are counted on a listener (by its id: listeners of the Gateway and its ListenerSets count apart): a
 * route whose parentRef the listener admits and whose status for that parentRef is Accepted=True. That is Gateway API
 * v1.5's rule; v1.2 to v1.4 also counted attached routes that were not accepted, and this count follows v1.5 on every hub.
 */
function attachedRoutesCounter(resolutions: readonly RouteResolution[], verdicts: readonly RouteVerdict[]): (listenerId: string) => number {
  const counts = new Map<string, number>();
  resolutions.forEach((resolution, i) => {
    const accepted = (ref: ParentRefAsWritten): boolean =>
      verdicts[i]?.parents.find((p) => isDeepStrictEqual(p.parentRef, ref))?.conditions.some((c) => c.type === 'Accepted' && c.status === 'True') ?? false;
    // A route counts once on a listener, however many of its parentRefs select it.
    const counted = new Set(resolution.parents.flatMap((p) => (accepted(p.ref) ? p.attachment.counted : [])));
    for (const id of counted) counts.set(id, (counts.get(id) ?? 0) + 1);
  });
  return (id) => counts.get(id) ?? 0;
}

function listenerVerdicts(listeners: readonly ListenerResult[], attachedRoutes: (listenerId: string) => number): ListenerVerdict[] {
  return listeners.map((l) => ({ name: l.name, supportedKinds: l.supportedKinds, attachedRoutes: attachedRoutes(l.id), conditions: l.conditions }));
}

interface ModelParts {
  readonly listeners: readonly ListenerResult[];
  readonly routes: ModelRoute[];
  readonly routing: HostRouting[];
  readonly backends: ReturnType<typeof backendRefResolver>['backends'];
  readonly splits: ReadonlyMap<string, TrafficSplit>;
}

function assembleModel(inputs: HubInputs, config: GatewayConfig, { listeners, routes, routing, backends, splits }: ModelParts): GlobalGateway {
  const { metadata } = inputs.gateway;
  const used = new Set(routes.flatMap((r) => r.rules.flatMap((rule) => rule.backends.map((b) => b.backend))));
  const usedSplits = new Set(routes.flatMap((r) => r.rules.flatMap((rule) => (rule.split ? [rule.split] : []))));
  return {
    gateway: { namespace: metadata.namespace ?? '', name: metadata.name ?? '', uid: metadata.uid ?? '', generation: metadata.generation ?? 0 },
    config: {
      sku: config.sku,
      ...(config.wafPolicy ? { wafPolicy: config.wafPolicy } : {}),
      originResponseTimeoutSeconds: config.originResponseTimeoutSeconds,
      deletionPolicy: config.deletionPolicy,
    },
    listeners: listeners.flatMap((l) => (l.model ? [l.model] : [])),
    routes,
    backends: [...backends.values()].filter((b) => used.has(b.key)),
    splits: [...splits.values()].filter((s) => usedSplits.has(s.key)),
    routing,
    source: { kind: 'Gateway', namespace: metadata.namespace ?? '', name: metadata.name ?? '' },
  };
}

function modelRoute(res: RouteResolution, attachments: readonly HostAttachment[]): ModelRoute | undefined {
  if (attachments.length === 0) return undefined;
  const { metadata } = res.route;
  return {
    namespace: metadata.namespace ?? '',
    name: metadata.name ?? '',
    ...(metadata.creationTimestamp ? { creationTimestamp: metadata.creationTimestamp } : {}),
    listeners: attachments.map((a) => a.listener),
    hostnames: attachments.flatMap((a) => a.hostnames),
    rules: res.keptRules,
    source: { kind: 'HTTPRoute', namespace: metadata.namespace ?? '', name: metadata.name ?? '' },
  };
}

/**
 * Turns the hub's objects into the provider-neutral model of one Gateway and the conditions every object must
 * carry. Pure: no I/O, no clock, no randomness; the inputs are not modified.
 */
export function resolveGateway(inputs: HubInputs): ResolveResult {
  const { gateway, gatewayClass } = inputs;
  if (!gatewayClass || gatewayClass.spec.controllerName !== CONTROLLER_NAME) {
    const why = gatewayClass
      ? `GatewayClass ${gatewayClass.metadata.name} has controllerName ${gatewayClass.spec.controllerName}, not ${CONTROLLER_NAME}`
      : `GatewayClass ${gateway.spec.gatewayClassName} does not exist`;
    return { verdicts: { ignored: why, routes: [] } };
  }
  const classVerdict = gatewayClassVerdict(gatewayClass);
  const config: AnnotationResult<GatewayConfig> = parseGatewayAnnotations(gateway.metadata.annotations, { defaultSku: inputs.controller.defaultSku });
  const otherSets = (inputs.otherListenerSets ?? []).flatMap((set) => set.spec.listeners.map((listener) => ({ set, listener })));
  const listeners = resolveListeners(gateway, inputs.otherGateways, otherSets);
  const index = indexInputs(inputs);
  const listenerSets = resolveListenerSets(gateway, listeners, inputs.listenerSets ?? [], inputs.otherGateways ?? [], otherSets, index);
  // A ListenerSet listener in error takes no host from the Gateway's listeners through listener isolation.
  const setListeners = listenerSets.flatMap((s) => s.listeners.filter((l) => !l.problem));
  const siblings = [...listeners, ...setListeners];
  // Route verdicts depend on the SKU and the origin timeout. Each is read on its own, so that a valid explicit value
  // counts even while another key of the Gateway is invalid; an invalid one is unknown, never the default (a
  // Gateway error is reported once, on the Gateway, not again as derived errors on every route).
  const sku = readAnnotation(gatewayContract, 'sku', gateway.metadata.annotations);
  const timeout = readAnnotation(gatewayContract, 'originResponseTimeoutSeconds', gateway.metadata.annotations);
  const gatewayRef = { namespace: gateway.metadata.namespace ?? '', name: gateway.metadata.name ?? '', uid: gateway.metadata.uid ?? '' };
  // With other keys in error, an absent SKU may be a misspelled one: unknown too, never the default.
  const knownSku = sku.ok ? (sku.value ?? (config.ok ? inputs.controller.defaultSku : undefined)) : undefined;
  const refs = backendRefResolver(index, knownSku, gatewayRef);
  const context = {
    gateway,
    listeners,
    listenerSets,
    siblings,
    index,
    refs,
    splits: trafficSplits(refs.backends),
    profileTimeoutSeconds: timeout.ok ? timeout.value : undefined,
  };
  const gatewayKey = namespacedName(gatewayRef.namespace, gatewayRef.name);
  const servings = [...(inputs.httpRoutes ?? [])]
    .sort((a, b) => compareText(a.metadata.namespace ?? '', b.metadata.namespace ?? '') || compareText(a.metadata.name ?? '', b.metadata.name ?? ''))
    .flatMap((route) => resolveServing(route, context, gatewayKey) ?? []);
  // The model and the listeners' attached routes come from what is served; each route's status from its current spec.
  const resolutions = servings.map((s) => s.served);

  const perRoute = resolutions.map((res) => ({ res, attachments: hostAttachments(res) }));
  // Routing and model routes of every route the model has not refused.
  const routeParts = (refused: ReadonlyMap<string, string>) => {
    const kept = perRoute.filter(({ res }) => !refused.has(res.key));
    return { ...buildRouting(kept.flatMap((r) => r.attachments)), routes: kept.flatMap(({ res, attachments }) => modelRoute(res, attachments) ?? []) };
  };
  const refused = new Map<string, string>();
  let parts = routeParts(refused);

  let conditions = gatewayConditions(gateway, classVerdict, config, listeners);
  let model: GlobalGateway | undefined;
  if (config.ok && conditions[0]?.status === 'True') {
    const assemble = () =>
      assembleModel(inputs, config.config, {
        listeners: siblings,
        routes: parts.routes,
        routing: parts.routing,
        backends: refs.backends,
        splits: context.splits.splits,
      });
    let normalized = normalize(assemble());
    // A structural error of some routes refuses those routes alone, however many rounds that takes; only an error of
    // the Gateway itself leaves it without a model.
    while (!normalized.ok) {
      const errors = findModelErrors(assemble());
      if (errors.some((e) => e.routes.length === 0 || e.routes.every((r) => refused.has(r)))) break;
      for (const e of errors) for (const r of e.routes) refused.set(r, joinMessages([refused.get(r), e.message]));
      parts = routeParts(refused);
      normalized = normalize(assemble());
    }
    if (normalized.ok) model = normalized.model;
    else conditions = gatewayConditions(gateway, classVerdict, config, listeners, `the model is invalid: ${normalized.errors.join('; ')}`);
  }
  const { shadowed, caseCollisions } = parts;
  const routes = servings.map(({ current, served, servingGeneration }) =>
    routeVerdict(
      current,
      { shadowed: shadowed.get(current.key) ?? [], caseCollisions: caseCollisions.get(current.key) ?? [], modelErrors: refused.get(current.key) },
      servingGeneration === undefined ? undefined : { served, generation: servingGeneration },
    ),
  );
  const attachedRoutes = attachedRoutesCounter(resolutions, routes);
  const setVerdicts = listenerSetVerdicts(
    listenerSets,
    conditions.find((c) => c.type === 'Accepted'),
    attachedRoutes,
  );
  return {
    ...(model ? { model } : {}),
    verdicts: {
      gatewayClass: classVerdict,
      gateway: {
        namespace: gateway.metadata.namespace ?? '',
        name: gateway.metadata.name ?? '',
        conditions,
        listeners: listenerVerdicts(listeners, attachedRoutes),
        ...(setVerdicts.length > 0 ? { attachedListenerSets: attachedListenerSets(setVerdicts) } : {}),
      },
      ...(setVerdicts.length > 0 ? { listenerSets: setVerdicts } : {}),
      routes,
    },
  };
}
