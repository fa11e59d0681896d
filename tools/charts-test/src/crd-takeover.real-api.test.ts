import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startControlPlane, type Cluster, type ControlPlane } from '@fleet-gateway/control-plane';
import { customResourceDefinitions, KubeApiError, KubeClient, objectPath, type CustomResourceDefinition } from '@fleet-gateway/controller';
import { createNamespace, eventually } from '@fleet-gateway/controller/test-support';
import { checkFleetCrds, INTERNAL_SERVICE_EXPORT_CRD, UPSTREAM_CRD_INSTALLER_LABEL } from '@fleet-gateway/fleet-schema';
import { exportOf } from '@fleet-gateway/fleet-hub/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from './helm-binary.js';
import { chartDir, helm } from './helm.js';

const UPSTREAM_DIR = path.join(REPO_ROOT, 'tools/charts-test/fixtures/upstream-crds');
const RELEASE = 'hub-gateway';
const PRIVATE_LINK_SERVICE = { resourceID: '/subscriptions/x/resourceGroups/mc/providers/Microsoft.Network/privateLinkServices/pls-web', location: 'eastus2' };
const ISE_PATH = '/apis/networking.fleet.azure.com/v1alpha1/namespaces/fleet-member-member-1/internalserviceexports';

let plane: ControlPlane;
let hub: Cluster;
let client: KubeClient;

/** Upstream's CRD file as its net-crd-installer applies it: unchanged, with the installer's label. */
async function upstreamCrd(plural: string): Promise<CustomResourceDefinition> {
  const crd = parse(await readFile(path.join(UPSTREAM_DIR, `networking.fleet.azure.com_${plural}.yaml`), 'utf8')) as CustomResourceDefinition;
  return { ...crd, metadata: { ...crd.metadata, labels: { ...crd.metadata.labels, [UPSTREAM_CRD_INSTALLER_LABEL]: 'true' } } };
}

/** What net-crd-installer does whenever an upstream pod starts: CreateOrUpdate with upstream's spec. */
async function runUpstreamInstaller(): Promise<void> {
  for (const plural of ['internalserviceexports', 'serviceimports']) {
    const crd = await upstreamCrd(plural);
    const current = await client.get<CustomResourceDefinition>(objectPath(customResourceDefinitions, crd.metadata.name)).catch(() => undefined);
    if (!current) {
      await client.create(`/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, crd, { fieldManager: 'net-crd-installer' });
    } else {
      const labels = { ...current.metadata.labels, [UPSTREAM_CRD_INSTALLER_LABEL]: 'true' };
      await client.replace(
        objectPath(customResourceDefinitions, crd.metadata.name),
        { ...current, metadata: { ...current.metadata, labels }, spec: crd.spec },
        { fieldManager: 'net-crd-installer' },
      );
    }
  }
}

const readIseCrd = () => client.get<CustomResourceDefinition>(objectPath(customResourceDefinitions, INTERNAL_SERVICE_EXPORT_CRD));

/** Waits until the API server serves what the installed CRD says (the check reads the CRD; the create proves it). */
async function extensionFieldsServed(): Promise<boolean> {
  const check = await eventually(
    async () => checkFleetCrds(await readIseCrd()),
    (c) => c.ok,
    10_000,
  );
  return check.ok;
}

let exportCount = 0;
/** Creates an InternalServiceExport carrying an extension field, with strict validation: an unknown field is an error. */
async function createExportWithPrivateLinkService(): Promise<Record<string, unknown>> {
  const fixture = exportOf({ cluster: 'member-1', service: `web-${++exportCount}` });
  const body = { ...fixture, spec: { ...fixture.spec, privateLinkService: PRIVATE_LINK_SERVICE } };
  return eventually(
    () => client.create<Record<string, unknown>>(ISE_PATH, body, { fieldValidation: 'Strict' }).catch((error: unknown) => ({ error })),
    // Right after a CRD update the API server may still decode with the previous schema for a moment.
    (result) => !('error' in result),
    10_000,
  );
}

function helmOnHub(args: string[]) {
  return helm([...args, '--kubeconfig', hub.kubeconfigPath, '--namespace', 'fleet-system']);
}

beforeAll(async () => {
  plane = await startControlPlane({ clusters: ['hub'], controllerManager: false });
  hub = plane.cluster('hub');
  client = new KubeClient(hub.kubeConfig());
  await plane.installCrds('hub', { gatewayApi: 'standard', fleet: false });
  for (const namespace of ['fleet-system', 'fleet-member-member-1']) await createNamespace(client, namespace);
  await runUpstreamInstaller();
}, 180_000);

afterAll(async () => {
  await plane?.stop();
});

describe("the hub chart over upstream's CRDs (real kube-apiserver)", () => {
  it("upstream's InternalServiceExport refuses the extension fields (the starting point is real)", async () => {
    expect(checkFleetCrds(await readIseCrd()).ok).toBe(false);
    const error = await client
      .create(
        ISE_PATH,
        {
          apiVersion: 'networking.fleet.azure.com/v1alpha1',
          kind: 'InternalServiceExport',
          metadata: { name: 'probe' },
          spec: { privateLinkService: { resourceID: 'x' } },
        },
        { fieldValidation: 'Strict' },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).message).toContain('unknown field "spec.privateLinkService"');
  });

  it('helm upgrade --install without --take-ownership refuses, naming the CRD it would have to adopt', async () => {
    const result = await helmOnHub(['upgrade', '--install', RELEASE, chartDir('hub-gateway')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(
      /CustomResourceDefinition "(internalserviceexports|serviceimports)\.networking\.fleet\.azure\.com".*exists and cannot be imported/,
    );
    expect(checkFleetCrds(await readIseCrd()).ok).toBe(false);
  });

  it("helm upgrade --install --take-ownership alone refuses too: server-side apply conflicts with net-crd-installer's fields", async () => {
    const result = await helmOnHub(['upgrade', '--install', RELEASE, chartDir('hub-gateway'), '--take-ownership']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/internalserviceexports\.networking\.fleet\.azure\.com.*conflict with "net-crd-installer"/);
    expect(checkFleetCrds(await readIseCrd()).ok).toBe(false);
  });

  it('helm upgrade --install --take-ownership --force-conflicts installs the extended CRDs: Helm owns them and the extension fields are served', async () => {
    const result = await helmOnHub(['upgrade', '--install', RELEASE, chartDir('hub-gateway'), '--take-ownership', '--force-conflicts']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const crd = await readIseCrd();
    expect(crd.metadata.annotations).toMatchObject({
      'meta.helm.sh/release-name': RELEASE,
      'meta.helm.sh/release-namespace': 'fleet-system',
      'helm.sh/resource-policy': 'keep',
    });
    expect(crd.metadata.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'Helm' });
    expect(await extensionFieldsServed()).toBe(true);
    const created = await createExportWithPrivateLinkService();
    expect(created).toMatchObject({ spec: { privateLinkService: { location: 'eastus2' } } });
  });

  it("helm upgrade --force-conflicts puts the extended CRDs back after upstream's net-crd-installer reverted them", async () => {
    await runUpstreamInstaller();
    expect(
      (
        await eventually(
          async () => checkFleetCrds(await readIseCrd()),
          (c) => !c.ok,
          10_000,
        )
      ).ok,
    ).toBe(false);
    const plain = await helmOnHub(['upgrade', RELEASE, chartDir('hub-gateway')]);
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toMatch(/conflict with "net-crd-installer"/);
    const result = await helmOnHub(['upgrade', RELEASE, chartDir('hub-gateway'), '--force-conflicts', '--set', 'logLevel=debug']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await extensionFieldsServed()).toBe(true);
    expect(await createExportWithPrivateLinkService()).toMatchObject({ spec: { privateLinkService: { location: 'eastus2' } } });
    const deployment = await client.get<{ spec: { template: { spec: { containers: { args: string[] }[] } } } }>(
      '/apis/apps/v1/namespaces/fleet-system/deployments/hub-gateway',
    );
    expect(deployment.spec.template.spec.containers[0]!.args).toContain('--log-level=debug');
  });

  it('helm uninstall keeps the CRDs and so every export', async () => {
    const result = await helmOnHub(['uninstall', RELEASE]);
    expect(result.code).toBe(0);
    expect(checkFleetCrds(await readIseCrd()).ok).toBe(true);
    const list = await client.get<{ items: unknown[] }>(ISE_PATH);
    expect(list.items).toHaveLength(exportCount);
    await expect(client.get('/apis/apps/v1/namespaces/fleet-system/deployments/hub-gateway')).rejects.toMatchObject({ statusCode: 404 });
  });
});
