import {
  ApiextensionsV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type KubeConfig,
  type V1CustomResourceDefinition,
} from '@kubernetes/client-node';
import {
  defaultGatewayApiVersion,
  fleetCrds,
  gatewayApiCrds,
  type CustomResourceDefinitionManifest,
  type GatewayApiChannel,
  type GatewayApiVersion,
} from './crds.js';

export interface CrdSelection {
  /** Gateway API channel, or false for none. Default: standard. */
  gatewayApi?: GatewayApiChannel | false;
  /** The Gateway API release. Default: `GATEWAY_API_VERSION` from the environment, else the oldest supported. */
  gatewayApiVersion?: GatewayApiVersion;
  /**
   * Install the experimental GatewayClass CRD over the standard one: up to v1.2.1 only it keeps
   * status.supportedFeatures (the standard schema prunes it; from v1.3.0 the standard one keeps it).
   */
  experimentalGatewayClass?: boolean;
  /** The project's Fleet CRDs. Default: true. */
  fleet?: boolean;
}

async function selectCrds(selection: CrdSelection): Promise<CustomResourceDefinitionManifest[]> {
  const crds: CustomResourceDefinitionManifest[] = [];
  const channel = selection.gatewayApi ?? 'standard';
  if (channel) {
    const version = selection.gatewayApiVersion ?? defaultGatewayApiVersion();
    const gateway = await gatewayApiCrds(channel, version);
    if (selection.experimentalGatewayClass && channel === 'standard') {
      const experimental = (await gatewayApiCrds('experimental', version)).find((c) => c.spec.names.kind === 'GatewayClass');
      crds.push(...gateway.filter((c) => c.spec.names.kind !== 'GatewayClass'));
      if (experimental) crds.push(experimental);
    } else {
      crds.push(...gateway);
    }
  }
  if (selection.fleet ?? true) crds.push(...(await fleetCrds()));
  return crds;
}

async function waitEstablished(api: ApiextensionsV1Api, names: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(names);
  while (pending.size > 0) {
    for (const name of [...pending]) {
      const crd = await api.readCustomResourceDefinition({ name });
      if (crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True')) pending.delete(name);
    }
    if (pending.size === 0) return;
    if (Date.now() > deadline) throw new Error(`CRDs not established within ${timeoutMs} ms: ${[...pending].join(', ')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const isTooManyRequests = (error: unknown): boolean => (error as { code?: number }).code === 429;

/**
 * Waits until a namespaced list of each custom resource is answered. For a moment after a CRD is established, and
 * after the API server restarts, such lists get 429 "storage is (re)initializing" although /readyz is green and the
 * CRD Established; a client that does not retry (client-node) would fail on them.
 */
export async function waitCustomResourcesServed(kc: KubeConfig, names?: string[], timeoutMs = 30_000): Promise<void> {
  const crds = (await kc.makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition()).items.filter(
    (crd) => !names || names.includes(crd.metadata?.name ?? ''),
  );
  const custom = kc.makeApiClient(CustomObjectsApi);
  const deadline = Date.now() + timeoutMs;
  for (const crd of crds) {
    const { group, scope, names: crdNames, versions } = crd.spec;
    const version = versions.find((v) => v.storage)?.name ?? versions[0]?.name ?? '';
    const list = () =>
      scope === 'Namespaced'
        ? custom.listNamespacedCustomObject({ group, version, namespace: 'default', plural: crdNames.plural, limit: 1 })
        : custom.listClusterCustomObject({ group, version, plural: crdNames.plural, limit: 1 });
    for (;;) {
      const answered = await list().then(
        () => true,
        (error: unknown) => {
          if (!isTooManyRequests(error) || Date.now() > deadline) throw error;
          return false;
        },
      );
      if (answered) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Applies the CRDs with server-side apply (idempotent) and waits until the API server serves each of them. */
export async function installCrds(kc: KubeConfig, selection: CrdSelection = {}, timeoutMs = 30_000): Promise<string[]> {
  const api = kc.makeApiClient(ApiextensionsV1Api);
  const crds = await selectCrds(selection);
  for (const crd of crds) {
    await api.patchCustomResourceDefinition(
      { name: crd.metadata.name, body: crd as unknown as V1CustomResourceDefinition, fieldManager: 'fleet-gateway-test-harness', force: true },
      setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply),
    );
  }
  const names = crds.map((c) => c.metadata.name);
  await waitEstablished(api, names, timeoutMs);
  await waitCustomResourcesServed(kc, names, timeoutMs);
  return names;
}
