import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AdmissionregistrationV1Api,
  ApiextensionsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  PatchStrategy,
  setHeaderOptions,
  type V1ValidatingAdmissionPolicy,
  type V1ValidatingAdmissionPolicyBinding,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { startControlPlane, type ControlPlane } from './control-plane.js';
import { GATEWAY_API_VERSIONS, gatewayApiCrds, gatewayApiModuleDir, NEWEST_GATEWAY_API_VERSION, OLDEST_GATEWAY_API_VERSION } from './crds.js';
import { gateway, gatewayClass, httpRoute, NS, referenceGrant } from './test-objects.js';

let plane: ControlPlane;
const GROUP = 'gateway.networking.k8s.io';

beforeAll(async () => {
  plane = await startControlPlane({ clusters: ['hub'], controllerManager: false });
  const core = plane.cluster('hub').kubeConfig().makeApiClient(CoreV1Api);
  for (const name of [NS, 'team-b']) await core.createNamespace({ body: { metadata: { name } } });
});

afterAll(async () => {
  await plane?.stop();
});

const listenerSet = {
  apiVersion: `${GROUP}/v1`,
  kind: 'ListenerSet',
  metadata: { name: 'team-listeners', namespace: NS },
  spec: { parentRef: { name: 'web' }, listeners: [{ name: 'extra', protocol: 'HTTP', port: 80, hostname: 'extra.example.com' }] },
};

type Manifest = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } };
const plurals: Record<string, string> = {
  GatewayClass: 'gatewayclasses',
  Gateway: 'gateways',
  HTTPRoute: 'httproutes',
  ReferenceGrant: 'referencegrants',
  ListenerSet: 'listenersets',
};

/** Server-side applies `body` and reads it back: the API server stores and serves the kind at that version. */
async function applyAndRead(body: Manifest): Promise<Manifest> {
  const custom = plane.cluster('hub').kubeConfig().makeApiClient(CustomObjectsApi);
  const [group = '', version = ''] = body.apiVersion.split('/');
  const { name, namespace } = body.metadata;
  const plural = plurals[body.kind]!;
  const options = { fieldManager: 'release-test', force: true };
  const apply = setHeaderOptions('Content-Type', PatchStrategy.ServerSideApply);
  if (namespace) {
    await custom.patchNamespacedCustomObject({ group, version, namespace, plural, name, body, ...options }, apply);
    return (await custom.getNamespacedCustomObject({ group, version, namespace, plural, name })) as Manifest;
  }
  await custom.patchClusterCustomObject({ group, version, plural, name, body, ...options }, apply);
  return (await custom.getClusterCustomObject({ group, version, plural, name })) as Manifest;
}

/** v1.5+ ships, beside its standard CRDs, an admission policy (and its binding) guarding CRD writes. */
async function safeUpgradesPolicy(): Promise<[V1ValidatingAdmissionPolicy, V1ValidatingAdmissionPolicyBinding]> {
  const file = path.join(await gatewayApiModuleDir(NEWEST_GATEWAY_API_VERSION), 'config/crd/standard/gateway.networking.k8s.io_vap_safeupgrades.yaml');
  const [policy, binding] = parseAllDocuments(await readFile(file, 'utf8')).map((d) => d.toJS() as unknown);
  return [policy as V1ValidatingAdmissionPolicy, binding as V1ValidatingAdmissionPolicyBinding];
}

const ListenerSetFrom = GATEWAY_API_VERSIONS.indexOf('v1.5.1');

describe('each supported Gateway API release, installed in order on one hub (as a hub is upgraded)', () => {
  it.each(GATEWAY_API_VERSIONS.map((version, index) => [version, index] as const))(
    '%s: its standard CRDs install, each annotated with the release, and every kind the hub agent reads is served',
    async (version, index) => {
      const names = await plane.installCrds('hub', { gatewayApiVersion: version, fleet: false });
      const expected = (await gatewayApiCrds('standard', version)).map((c) => c.metadata.name);
      expect(names).toEqual(expected);

      const installed = await plane.cluster('hub').kubeConfig().makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition();
      const ours = installed.items.filter((c) => expected.includes(c.metadata?.name ?? ''));
      expect(ours.map((c) => c.metadata?.annotations?.[`${GROUP}/bundle-version`])).toEqual(expected.map(() => version));

      for (const body of [gatewayClass, gateway, httpRoute(10), referenceGrant]) expect((await applyAndRead(body)).metadata.name).toBe(body.metadata.name);
      // ListenerSet is standard from v1.5: served there, absent before.
      expect(expected.includes(`listenersets.${GROUP}`)).toBe(index >= ListenerSetFrom);
      if (expected.includes(`listenersets.${GROUP}`)) expect((await applyAndRead(listenerSet)).kind).toBe('ListenerSet');
    },
  );

  // The harness installs CRDs only: the agent writes no CRD, so the policy changes nothing it does, and the policy
  // would refuse what the harness must do (install releases before v1.5, the experimental GatewayClass over standard).
  it('leaves out the safe-upgrades admission policy of v1.5+, which refuses the older releases of the matrix', async () => {
    const admission = plane.cluster('hub').kubeConfig().makeApiClient(AdmissionregistrationV1Api);
    const [policy, binding] = await safeUpgradesPolicy();
    await admission.createValidatingAdmissionPolicy({ body: policy });
    await admission.createValidatingAdmissionPolicyBinding({ body: binding });
    const installOldest = () =>
      plane.installCrds('hub', { gatewayApiVersion: OLDEST_GATEWAY_API_VERSION, fleet: false }).then(
        () => 'installed',
        (error: unknown) => String((error as { body?: unknown }).body ?? error),
      );
    // The policy takes effect once the API server's admission has loaded it.
    await expect.poll(installOldest, { timeout: 30_000, interval: 500 }).toContain('Installing CRDs with version before v1.5.0 is prohibited');
  });
});
