import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout } from 'node:timers/promises';
import { startControlPlane, type ControlPlane } from '@fleet-gateway/control-plane';
import { KubeApiError, KubeClient } from '@fleet-gateway/controller';
import { createNamespace } from '@fleet-gateway/controller/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helm-binary.js';
import { parseManifests, render, type ChartName, type Manifest } from './helm.js';
import { applyManifest, dryRunCreate } from './kube-objects.js';
import { only } from './manifests.js';

let plane: ControlPlane;
const clients: Record<string, KubeClient> = {};
// fleet-member-*: the hub namespaces of hub-everything.yaml's memberClusters, which Fleet's hub agent creates.
// monitoring: where the everything values put the Grafana dashboard's ConfigMap.
const NAMESPACES = ['fleet-system', 'fleet-gateway-system', 'fleet-leases', 'fleet-member-member-1', 'fleet-member-member-2', 'monitoring'];
/** Prometheus Operator's ServiceMonitor and PrometheusRule CRDs, as its Go module v0.85.0 ships them (example/prometheus-operator-crd). */
const PROMETHEUS_OPERATOR_CRDS = path.join(REPO_ROOT, 'tools/charts-test/fixtures/prometheus-operator-crds');

/** Applies the Prometheus Operator CRDs, so the charts' ServiceMonitor and PrometheusRule are validated against their schemas. */
async function installPrometheusOperatorCrds(client: KubeClient): Promise<void> {
  for (const file of await readdir(PROMETHEUS_OPERATOR_CRDS)) {
    for (const crd of parseManifests(await readFile(path.join(PROMETHEUS_OPERATOR_CRDS, file), 'utf8'))) await applyManifest(client, crd);
  }
  // A new CRD's resources are served a moment after it is applied.
  const deadline = Date.now() + 30_000;
  for (const plural of ['servicemonitors', 'prometheusrules']) {
    while (
      !(await client.get(`/apis/monitoring.coreos.com/v1/namespaces/default/${plural}?limit=1`).then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error(`${plural}.monitoring.coreos.com not served within 30 s`);
      await setTimeout(100);
    }
  }
}

beforeAll(async () => {
  plane = await startControlPlane({ clusters: ['hub', 'member-1'], controllerManager: false });
  // Gateway API's CRDs are the hub's prerequisite (README, "Helm charts"); the Fleet CRDs come from the charts.
  await plane.installCrds('hub', { gatewayApi: 'standard', fleet: false });
  for (const cluster of ['hub', 'member-1']) {
    clients[cluster] = new KubeClient(plane.cluster(cluster).kubeConfig());
    for (const namespace of NAMESPACES) await createNamespace(clients[cluster]!, namespace);
    await installPrometheusOperatorCrds(clients[cluster]!);
  }
}, 180_000);

afterAll(async () => {
  await plane?.stop();
});

const RENDERINGS: { chart: ChartName; cluster: string; values: string[] }[] = [
  { chart: 'hub-gateway', cluster: 'hub', values: [] },
  { chart: 'hub-gateway', cluster: 'hub', values: ['hub-everything.yaml'] },
  { chart: 'member-discovery', cluster: 'member-1', values: ['member-minimal.yaml'] },
  { chart: 'member-discovery', cluster: 'member-1', values: ['member-everything.yaml'] },
];

const isCrd = (m: Manifest) => m.kind === 'CustomResourceDefinition';

describe('rendered manifests against a real kube-apiserver (dryRun=All, fieldValidation=Strict)', () => {
  for (const { chart, cluster, values } of RENDERINGS) {
    it(`${chart} with ${values.join(', ') || 'default values'} is admitted on ${cluster}: CRDs applied first, then the rest as a dry run`, async () => {
      const client = clients[cluster]!;
      const manifests = await render(chart, values);
      const crds = manifests.filter(isCrd);
      expect(crds.length).toBeGreaterThan(0);
      for (const crd of crds) await applyManifest(client, crd);
      const rest = manifests.filter((m) => !isCrd(m));
      const admitted = await Promise.all(rest.map((m) => dryRunCreate(client, m)));
      expect(admitted.map((m) => `${m.kind}/${m.metadata.name}`)).toEqual(rest.map((m) => `${m.kind}/${m.metadata.name}`));
      // A dry run stores nothing.
      const deployment = only(rest, 'Deployment');
      await expect(client.get(`/apis/apps/v1/namespaces/${deployment.metadata.namespace}/deployments/${deployment.metadata.name}`)).rejects.toMatchObject({
        statusCode: 404,
      });
    });
  }

  it('refuses an unknown field in a rendered Deployment (the strict validation is on)', async () => {
    const deployment = only(await render('hub-gateway'), 'Deployment');
    const spec = deployment['spec'] as Record<string, unknown>;
    const broken = { ...deployment, spec: { ...spec, replicaz: 2 } };
    const error = await dryRunCreate(clients['hub']!, broken).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).message).toMatch(/strict decoding error: unknown field "spec.replicaz"/);
  });
});
