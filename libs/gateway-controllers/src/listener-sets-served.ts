import { RESOURCES } from '@fleet-gateway/api-types';
import { isNotFound, type KubeClient } from '@fleet-gateway/controller';

/** Discovery answers at once or the API server is unwell: the agent's start fails then, and is tried again. */
const DISCOVERY_TIMEOUT_MS = 15_000;

/**
 * Whether the hub serves ListenerSet (gateway.networking.k8s.io/v1 listenersets: Gateway API v1.5 and later), read
 * once at start from API discovery: the hub watches ListenerSets only then, since an informer of a resource the API
 * server lacks never syncs. A hub whose Gateway API CRDs are upgraded later picks them up when the agent restarts.
 */
export async function servesListenerSets(client: KubeClient, signal: AbortSignal = AbortSignal.timeout(DISCOVERY_TIMEOUT_MS)): Promise<boolean> {
  const { group, version, plural } = RESOURCES.ListenerSet;
  try {
    const resources = await client.get<{ resources?: readonly { name: string }[] }>(`/apis/${group}/${version}`, undefined, signal);
    return (resources.resources ?? []).some((r) => r.name === plural);
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
}
