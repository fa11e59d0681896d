import {
  gatewayClasses,
  gateways,
  httpRoutes,
  hubInputsOf,
  listenerSets,
  namespaces,
  referenceGrants,
  type HubObjects,
} from '@fleet-gateway/gateway-controllers';
import { collectionPath, isNotFound, KubeClient, type KubeList, type KubeObject, type ResourceType } from '@fleet-gateway/controller';
import { internalServiceExports, serviceImports } from '@fleet-gateway/fleet-hub';
import type { Sku } from '@fleet-gateway/annotations';
import type { HubInputs } from '@fleet-gateway/model';
import { KubeConfig } from '@kubernetes/client-node';

export interface HubConnection {
  readonly kubeconfig?: string;
  readonly context?: string;
  readonly namespace?: string;
}

/** kubectl's rules: --kubeconfig, else $KUBECONFIG or ~/.kube/config; --context, else the current one. */
export function loadKubeConfig(connection: HubConnection): KubeConfig {
  const kubeConfig = new KubeConfig();
  if (connection.kubeconfig) kubeConfig.loadFromFile(connection.kubeconfig);
  else kubeConfig.loadFromDefault();
  if (connection.context) {
    if (!kubeConfig.getContextObject(connection.context)) {
      const known = kubeConfig.getContexts().map((c) => c.name);
      throw new Error(`--context is "${connection.context}"; expected one of the kubeconfig's contexts: ${known.join(', ') || '(none)'}`);
    }
    kubeConfig.setCurrentContext(connection.context);
  }
  return kubeConfig;
}

/** -n, else the context's namespace, else `default`, as kubectl does. */
export function namespaceOf(kubeConfig: KubeConfig, connection: HubConnection): string {
  return connection.namespace ?? kubeConfig.getContextObject(kubeConfig.getCurrentContext())?.namespace ?? 'default';
}

// Each read is bounded; a tool answers or says why within a minute rather than hang on a lost API server.
const REQUEST_TIMEOUT_MS = 20_000;

async function listAll<T extends KubeObject>(client: KubeClient, resource: ResourceType): Promise<T[]> {
  return (await client.get<KubeList<T>>(collectionPath(resource))).items;
}

/** Every object kind the hub's Gateway reconcile reads, listed across namespaces (reads only). */
export async function readHubObjects(kubeConfig: KubeConfig): Promise<HubObjects> {
  const client = new KubeClient(kubeConfig, { requestTimeoutMs: REQUEST_TIMEOUT_MS, maxRetries: 3 });
  const [classes, gatewayList, routes, grants, imports, exports, namespaceList] = await Promise.all([
    listAll<HubObjects['gatewayClasses'][number]>(client, gatewayClasses),
    listAll<HubObjects['gateways'][number]>(client, gateways),
    listAll<HubObjects['httpRoutes'][number]>(client, httpRoutes),
    listAll<HubObjects['referenceGrants'][number]>(client, referenceGrants),
    listAll<HubObjects['serviceImports'][number]>(client, serviceImports),
    listAll<HubObjects['internalServiceExports'][number]>(client, internalServiceExports),
    listAll<HubObjects['namespaces'][number]>(client, namespaces),
  ]);
  // ListenerSets exist from Gateway API v1.5 on: on an older hub the list is 404 and, as in the agent, there are none.
  const sets = await listAll<NonNullable<HubObjects['listenerSets']>[number]>(client, listenerSets).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  return {
    gatewayClasses: classes,
    gateways: gatewayList,
    httpRoutes: routes,
    referenceGrants: grants,
    serviceImports: imports,
    internalServiceExports: exports,
    namespaces: namespaceList,
    ...(sets ? { listenerSets: sets } : {}),
  };
}

/** The inputs the hub resolves the Gateway from, or a clear error when there is no such Gateway. */
export function gatewayInputs(objects: HubObjects, namespace: string, name: string, defaultSku: Sku): HubInputs {
  const inputs = hubInputsOf(objects, `${namespace}/${name}`, defaultSku);
  if (!inputs) {
    const here = objects.gateways.filter((g) => g.metadata.namespace === namespace).map((g) => g.metadata.name);
    throw new Error(`Gateway ${namespace}/${name} not found; Gateways in namespace ${namespace}: ${here.join(', ') || '(none)'}`);
  }
  return inputs;
}
