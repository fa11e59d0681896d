import { badRequest } from '../arm/errors.js';
import type { WriteRequest } from '../arm/kind.js';
import { parentKeyOf } from '../arm/resource-id.js';
import type { EmulatorContext } from '../emulator-context.js';
import { AFD, afdChildKind, enforceProfileLimit, limitFor, profileKeyOf, profileOf, requireReference } from './afd-common.js';
import { compositeRouteMetric, findRouteConflict, patternProblem, routeShape } from './route-rules.js';
import { requireUsableGroup } from './origin-group-usage.js';
import { ruleSetsOfRoute, rulesOf } from './rule-sets.js';

/** Microsoft.Cdn/profiles/afdEndpoints/routes. */
export const routeKind = afdChildKind({
  types: ['profiles', 'afdEndpoints', 'routes'],
  definition: 'Route',
  updateDefinition: 'RouteUpdateParameters',
  check(request, context) {
    const properties = request.body.properties;
    requireUsableGroup(properties.originGroup, 'properties.originGroup', request, context);
    refuseLosingEveryDomain(request);
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
  // What Azure fills in: each custom domain's isActive, and the members it returns as null when unset.
  render(record) {
    const properties = record.body.properties;
    const customDomains = ((properties.customDomains as Array<Record<string, unknown>> | undefined) ?? []).map((domain) => ({ ...domain, isActive: true }));
    return { customDomains, originPath: properties.originPath ?? null, cacheConfiguration: properties.cacheConfiguration ?? null };
  },
});

/**
 * Only the first creation of a route may leave it without a domain (terraform-provider-azurerm #18844, #22924): an
 * update must keep the default domain linked or a custom domain associated.
 */
function refuseLosingEveryDomain(request: WriteRequest): void {
  if (request.existing === undefined) return;
  const properties = request.body.properties;
  const customDomains = (properties.customDomains as unknown[] | undefined) ?? [];
  if (properties.linkToDefaultDomain === 'Enabled' || customDomains.length > 0) return;
  throw badRequest(
    `Route '${request.path.names[2]}' must be associated with at least one domain: set 'properties.linkToDefaultDomain' to 'Enabled' ` +
      "or list a custom domain in 'properties.customDomains'.",
  );
}

/**
 * A (domain, path pattern, protocol) belongs to one route of the profile: documented within an endpoint
 * (Azure/bicep#13502); across the profile's endpoints (where custom domains can meet) assumption A49.
 */
function checkConflicts(request: WriteRequest, context: EmulatorContext): void {
  const candidate = routeShape(request.path.names[2] as string, request.body.properties, parentKeyOf(request.key));
  const others = context.store
    .ofKind(AFD.route, profileKeyOf(request.path))
    .map((route) => routeShape(route.name, route.body.properties, parentKeyOf(route.key)));
  const conflict = findRouteConflict(candidate, others);
  if (conflict === undefined) return;
  const domainName = context.store.get(conflict.domain)?.name ?? conflict.domain;
  const endpointName = context.store.get(conflict.otherEndpoint)?.name ?? conflict.otherEndpoint;
  throw badRequest(
    'The route domains, paths and protocols configuration has a conflict. More information: ' +
      `Domain: ${domainName}, Path pattern: ${conflict.pattern}, Protocol: ${conflict.protocol} cannot be added to Route ${candidate.name} ` +
      `as this combination already exists in Endpoint ${endpointName}, Route ${conflict.other}.`,
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
