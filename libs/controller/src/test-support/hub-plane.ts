import { startControlPlane, type Cluster, type ControlPlane } from '@fleet-gateway/control-plane';
import { KubeClient } from '../kube/kube-client.js';
import { createNamespace } from './real-api.js';

export interface HubPlane {
  readonly plane: ControlPlane;
  readonly hub: Cluster;
  readonly client: KubeClient;
}

/**
 * One real kube-apiserver + etcd (no controller manager: these tests need none) with the given namespaces; one per
 * test file, stopped in afterAll.
 */
export async function startHubPlane(options: { namespaces?: string[]; apiServerArgs?: string[] } = {}): Promise<HubPlane> {
  const plane = await startControlPlane({
    clusters: ['hub'],
    controllerManager: false,
    ...(options.apiServerArgs ? { apiServerArgs: { hub: options.apiServerArgs } } : {}),
  });
  const hub = plane.cluster('hub');
  const client = new KubeClient(hub.kubeConfig());
  for (const namespace of options.namespaces ?? []) await createNamespace(client, namespace);
  return { plane, hub, client };
}
