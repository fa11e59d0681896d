import {
  customResourceDefinitions,
  isNotFound,
  objectPath,
  type CustomResourceDefinition,
  type KubeClient,
  type Logger,
  type ObjectEventHandler,
} from '@fleet-gateway/controller';
import { compareText, GATEWAY_GROUP } from '@fleet-gateway/api-types';
import { crdBundle, type CrdBundle } from './gateway-api-release.js';
import { GATEWAY_CLASS_CRD } from './gateway-api-resources.js';

/**
 * What the hub serves of Gateway API: each kind with the versions discovery lists for it, and the release its
 * GatewayClass CRD says it was installed from. Newer kinds and fields are used where served, never required.
 */
export interface ServedGatewayApi {
  /** Kind → served versions (`v1`, `v1beta1`, …), from API discovery. Empty when the group is not served at all. */
  readonly kinds: ReadonlyMap<string, readonly string[]>;
  readonly bundle: CrdBundle;
}

/** Whether the hub serves `kind` at `version` (`ListenerSet` at `v1` from v1.5 on; `ReferenceGrant` at `v1` from v1.5). */
export function servesKind(served: ServedGatewayApi, kind: string, version = 'v1'): boolean {
  return served.kinds.get(kind)?.includes(version) ?? false;
}

interface ApiGroup {
  readonly versions?: readonly { readonly version: string }[];
}
interface ApiResourceList {
  readonly resources?: readonly { readonly name: string; readonly kind: string }[];
}

/**
 * Reads what the hub serves: API discovery of the Gateway API group (open to every authenticated client) and the
 * GatewayClass CRD's annotations (the hub agent's ClusterRole grants `get` on that one CRD by name). A group or CRD
 * that is absent reads as nothing served and the oldest release; other failures are thrown (each request is bounded
 * by the client's timeout and retries).
 */
export async function servedGatewayApi(client: KubeClient): Promise<ServedGatewayApi> {
  const kinds = new Map<string, string[]>();
  const group = await client.get<ApiGroup>(`/apis/${GATEWAY_GROUP}`).catch(orUndefinedIfNotFound);
  for (const { version } of group?.versions ?? []) {
    const list = await client.get<ApiResourceList>(`/apis/${GATEWAY_GROUP}/${version}`).catch(orUndefinedIfNotFound);
    // Subresources (`gateways/status`) share their kind's entry; only the resources themselves count.
    for (const resource of (list?.resources ?? []).filter((r) => !r.name.includes('/'))) {
      kinds.set(resource.kind, [...(kinds.get(resource.kind) ?? []), version]);
    }
  }
  const crd = await client.get<CustomResourceDefinition>(objectPath(customResourceDefinitions, GATEWAY_CLASS_CRD)).catch(orUndefinedIfNotFound);
  return { kinds, bundle: crdBundle(crd) };
}

function orUndefinedIfNotFound(error: unknown): undefined {
  if (isNotFound(error)) return undefined;
  throw error;
}

/** The served API as one log field: `{ release, bundleVersion, channel, kinds: { Gateway: ['v1', 'v1beta1'], … } }`. */
export function describeServedGatewayApi(served: ServedGatewayApi) {
  return { ...served.bundle, kinds: Object.fromEntries([...served.kinds].sort(([a], [b]) => compareText(a, b))) };
}

/**
 * A handler for the GatewayClass CRD informer that logs when the hub's Gateway API CRDs move to another release under
 * the running agent. The GatewayClass `supportedFeatures` follow at once (its controller watches that CRD); the
 * informers of kinds served since the agent started are only created at start, so the log says a restart adds them.
 */
export function logReleaseChanges(logger: Logger, atStart: CrdBundle): ObjectEventHandler<CustomResourceDefinition> {
  let current = atStart;
  return (event) => {
    const bundle = event.type === 'deleted' ? crdBundle(undefined) : crdBundle(event.object);
    if (bundle.release === current.release && bundle.channel === current.channel) return;
    logger.warn('the hub’s Gateway API CRDs changed release', {
      from: current,
      to: bundle,
      effect: 'GatewayClass supportedFeatures follow now; kinds the hub serves since the agent started are watched after the agent restarts',
    });
    current = bundle;
  };
}
