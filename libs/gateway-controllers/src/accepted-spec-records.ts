import type { ReconcileReport } from '@fleet-gateway/azure-frontdoor';
import { isConflict, isKubeRequestFailure, isNotFound, objectKey, objectPath, type KubeClient, type Logger } from '@fleet-gateway/controller';
import { acceptedSpecKey, acceptedSpecsDue, acceptedSpecValue, type HubInputs, type ResolveResult } from '@fleet-gateway/model';
import { httpRoutes } from './gateway-api-resources.js';

/**
 * Records, on each route whose current generation the Gateway accepted in full and just handed to the provider, that
 * generation's spec (libs/model accepted-spec.ts): what the Gateway keeps serving if a later edit of the route is
 * invalid. A merge patch of one annotation, preconditioned on the resourceVersion that was judged: a route changed
 * since is judged again by the reconcile its change brings. A record that cannot be written is due again on the next
 * reconcile and never holds back the other routes: the route is only left without the hold meanwhile.
 */
export async function recordAcceptedSpecs(
  client: KubeClient,
  inputs: HubInputs,
  result: ResolveResult,
  report: ReconcileReport,
  logger: Logger,
): Promise<void> {
  const gateway = `${inputs.gateway.metadata.namespace ?? ''}/${inputs.gateway.metadata.name ?? ''}`;
  // A route Azure refused a resource of is not programmed as accepted: it gets no record until it is.
  const refused = new Set(report.failures.flatMap((f) => f.owners.map((o) => `${o.namespace}/${o.name}`)));
  for (const route of acceptedSpecsDue(inputs, result).filter((r) => !refused.has(objectKey(r)))) {
    const { namespace, name, resourceVersion, generation } = route.metadata;
    const annotations = { [acceptedSpecKey(gateway)]: acceptedSpecValue(route, gateway) };
    try {
      await client.patch(objectPath(httpRoutes, name ?? '', namespace), { metadata: { resourceVersion, annotations } }, 'merge');
      logger.info('recorded the accepted generation of the route', { step: 'status', route: objectKey(route), generation });
    } catch (error) {
      if (isNotFound(error) || isConflict(error)) continue;
      if (!isKubeRequestFailure(error)) throw error;
      logger.warn('could not record the accepted generation of the route; trying again on the next reconcile', {
        route: objectKey(route),
        generation,
        error: (error as Error).message,
      });
    }
  }
}
