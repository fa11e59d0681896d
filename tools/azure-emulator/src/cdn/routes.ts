import { badRequest } from '../arm/errors.js';
import type { WriteRequest } from '../arm/kind.js';
import { parentKeyOf } from '../arm/resource-id.js';
import type { EmulatorContext } from '../emulator-context.js';
import { AFD, afdChildKind, enforceProfileLimit, limitFor, profileOf, requireReference } from './afd-common.js';
import { compositeRouteMetric, findRouteConflict, patternProblem, routeShape } from './route-rules.js';
import { ruleSetsOfRoute, rulesOf } from './rule-sets.js';

/** Microsoft.Cdn/profiles/afdEndpoints/routes. */
export const routeKind = afdChildKind({
  types: ['profiles', 'afdEndpoints', 'routes'],
  definition: 'Route',
  updateDefinition: 'RouteUpdateParameters',
  check(request, context) {
    const properties = request.body.properties;
    requireReference(properties.originGroup, 'properties.originGroup', AFD.originGroup, request, context);
    ((properties.customDomains as unknown[] | undefined) ?? []).forEach((domain, i) =>
      requireReference(domain, `properties.customDomains[${i}]`, AFD.customDomain, request, context),
    );
    ruleSetsOfRoute(properties).forEach((ruleSet, i) => requireReference(ruleSet, `properties.ruleSets[${i}]`, AFD.ruleSet, request, context));
    ((properties.patternsToMatch as string[] | undefined) ?? []).forEach((pattern, i) => {
      const problem = patternProblem(pattern);
      if (problem !== undefined) throw badRequest(`'properties.patternsToMatch[${i}]' ${problem}; got '${pattern}'.`);
    });
    enforceProfileLimit(request, context, AFD.route, context.limits.afd.routesPerProfile, 'routes per profile');
    checkConflicts(request, context);
    checkCompositeMetric(request, context);
    checkRules(request, context);
  },
});

function checkConflicts(request: WriteRequest, context: EmulatorContext): void {
  const endpointKey = parentKeyOf(request.key);
  const candidate = routeShape(request.path.names[2] as string, request.body.properties, endpointKey);
  const others = context.store.ofKind(AFD.route, endpointKey).map((route) => routeShape(route.name, route.body.properties, endpointKey));
  const conflict = findRouteConflict(candidate, others);
  if (conflict === undefined) return;
  const domainName = context.store.get(conflict.domain)?.name ?? conflict.domain;
  throw badRequest(
    `Route '${candidate.name}' conflicts with route '${conflict.other}' on endpoint '${request.path.names[1]}': ` +
      `both match domain '${domainName}', path pattern '${conflict.pattern}' and protocol '${conflict.protocol}'.`,
  );
}

function checkCompositeMetric(request: WriteRequest, context: EmulatorContext): void {
  const profile = profileOf(request, context);
  const shapes = context.store
    .ofKind(AFD.route, profile.key)
    .filter((route) => route.key !== request.key)
    .map((route) => routeShape(route.name, route.body.properties, parentKeyOf(route.key)));
  shapes.push(routeShape(request.path.names[2] as string, request.body.properties, parentKeyOf(request.key)));
  const metric = compositeRouteMetric(shapes);
  const max = limitFor(context.limits.afd.compositeRouteMetricPerProfile, profile);
  if (metric > max) {
    throw badRequest(`Limit reached: the composite route metric of profile '${profile.name}' would be ${metric}; the maximum is ${max}.`);
  }
}

function checkRules(request: WriteRequest, context: EmulatorContext): void {
  const rules = rulesOf(ruleSetsOfRoute(request.body.properties), context);
  const max = limitFor(context.limits.afd.rulesPerRoute, profileOf(request, context));
  if (rules > max) throw badRequest(`Limit reached: 'properties.ruleSets' hold ${rules} rules together; a route can have at most ${max}.`);
}
