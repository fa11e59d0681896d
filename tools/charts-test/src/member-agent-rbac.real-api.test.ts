import { startControlPlane, type Cluster, type ControlPlane } from '@fleet-gateway/control-plane';
import { collectionPath, isNotFound, KubeApiError, KubeClient, LeaderElector, objectPath } from '@fleet-gateway/controller';
import { captureLogLines, createNamespace, eventually, logsFlushed } from '@fleet-gateway/controller/test-support';
import { ClusterRegion, internalServiceExports, REGION_LABEL, SERVICE_EXPORT_FINALIZER, serviceExports, services, type CachedServiceExport } from '@fleet-gateway/member-export';
import { startMemberAgent, type MemberAgent } from '@fleet-gateway/member-export/test-support';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chartDir, helmOk, VALUES_DIR } from './helm.js';
import { serviceAccountKubeconfig } from './service-account-identity.js';

const MEMBER = 'member-1';
const LEASE = 'member-discovery-controller-manager.networking.fleet.azure.com';
const SERVICE_ACCOUNT = 'member-discovery';

let plane: ControlPlane;
let member: Cluster;
let memberAdmin: KubeClient;
let hubAdmin: KubeClient;
let chartKubeConfig: KubeConfig;
let chartClient: KubeClient;
let agent: MemberAgent | undefined;
const logs = captureLogLines();

beforeAll(async () => {
  plane = await startControlPlane({ clusters: ['hub', MEMBER], controllerManager: false });
  member = plane.cluster(MEMBER);
  memberAdmin = new KubeClient(member.kubeConfig());
  hubAdmin = new KubeClient(plane.cluster('hub').kubeConfig());
  // The hub's Fleet CRDs come from the hub chart; the member's ServiceExport CRD and the agent's RBAC from the member chart.
  for (const client of [hubAdmin, memberAdmin]) {
    await createNamespace(client, 'fleet-system');
    await createNamespace(client, 'shop');
  }
  await helmOk(['upgrade', '--install', 'hub-gateway', chartDir('hub-gateway'), '--kubeconfig', plane.cluster('hub').kubeconfigPath, '--namespace', 'fleet-system']);
  await helmOk(['upgrade', '--install', 'member-discovery', chartDir('member-discovery'), '--values', `${VALUES_DIR}/member-minimal.yaml`, '--kubeconfig', member.kubeconfigPath, '--namespace', 'fleet-system']);
  chartKubeConfig = new KubeConfig();
  chartKubeConfig.loadFromString(await serviceAccountKubeconfig(memberAdmin, member, 'fleet-system', SERVICE_ACCOUNT));
  chartClient = new KubeClient(chartKubeConfig);
  await memberAdmin.create(collectionPath({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false }), {
    metadata: { name: 'aks-nodepool1-0', labels: { [REGION_LABEL]: 'eastus2' } },
  });
}, 240_000);

afterAll(async () => {
  await agent?.stop();
  await plane?.stop();
});

const readServiceExport = () => memberAdmin.get<CachedServiceExport>(objectPath(serviceExports, 'web', 'shop'));
const hubExportPath = objectPath(internalServiceExports, 'shop-web', `fleet-member-${MEMBER}`);
const refusals = () => logs.lines.filter((l) => l['level'] === 'error' || /forbidden|\b403\b/i.test(JSON.stringify(l)));

describe("the member agent's export side under only its chart's RBAC on the member (real kube-apiserver)", () => {
  it('the token reads what the agent reads and may not write Services or read Secrets', async () => {
    await expect(chartClient.get(collectionPath(services, 'shop'))).resolves.toBeDefined();
    for (const denied of [
      () => chartClient.create(collectionPath(services, 'shop'), { metadata: { name: 'x' }, spec: { ports: [{ port: 80 }] } }),
      () => chartClient.get('/api/v1/namespaces/fleet-system/secrets'),
    ]) {
      const error = await denied().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(KubeApiError);
      expect((error as KubeApiError).statusCode).toBe(403);
    }
  });

  it("reads the region from the nodes' label", async () => {
    expect((await new ClusterRegion({ client: chartClient }).zone()).region).toBe('eastus2');
  });

  it('takes, renews and releases its Lease in fleet-system', async () => {
    const elector = new LeaderElector({ client: chartClient, namespace: 'fleet-system', name: LEASE, identity: 'member-discovery-test', leaseDurationMs: 4000, renewDeadlineMs: 3000, retryPeriodMs: 500 });
    elector.start();
    expect(await eventually(() => elector.isLeader, Boolean, 10_000)).toBe(true);
    const path = `/apis/coordination.k8s.io/v1/namespaces/fleet-system/leases/${LEASE}`;
    const first = await memberAdmin.get<{ spec: { renewTime: string } }>(path);
    const renewed = await eventually(() => memberAdmin.get<{ spec: { renewTime: string } }>(path), (l) => l.spec.renewTime !== first.spec.renewTime, 10_000);
    expect(renewed.spec.renewTime).not.toBe(first.spec.renewTime);
    await elector.stop();
    expect((await memberAdmin.get<{ spec: { holderIdentity?: string } }>(path)).spec.holderIdentity ?? '').toBe('');
  });

  it('exports a Service (finalizer, Valid, the InternalServiceExport on the hub, events) and unexports it, with no refusal', async () => {
    agent = await startMemberAgent({ member: MEMBER, memberKubeConfig: chartKubeConfig, hubKubeconfigPath: await plane.memberHubKubeconfig(MEMBER), logStream: logs.stream });
    await memberAdmin.create(collectionPath(services, 'shop'), { metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ name: 'http', port: 80, targetPort: 8080, protocol: 'TCP' }] } });
    await memberAdmin.create(collectionPath(serviceExports, 'shop'), { apiVersion: 'networking.fleet.azure.com/v1beta1', kind: 'ServiceExport', metadata: { name: 'web' } });

    const valid = await eventually(readServiceExport, (s) => s.status?.conditions?.some((c) => c.type === 'Valid' && c.status === 'True') ?? false, 30_000);
    expect(valid.metadata.finalizers).toEqual([SERVICE_EXPORT_FINALIZER]);
    const published = await eventually(() => hubAdmin.get<{ spec?: { serviceReference?: { name: string } } }>(hubExportPath).catch(() => undefined), (e) => e !== undefined, 30_000);
    expect(published?.spec?.serviceReference?.name).toBe('web');
    const events = await eventually(
      () => memberAdmin.get<{ items: { reportingController?: string }[] }>('/apis/events.k8s.io/v1/namespaces/shop/events'),
      (list) => list.items.some((e) => e.reportingController === 'networking.fleet.azure.com/member-discovery'),
      30_000,
    );
    expect(events.items.some((e) => e.reportingController === 'networking.fleet.azure.com/member-discovery')).toBe(true);

    await memberAdmin.delete(objectPath(serviceExports, 'web', 'shop'));
    const gone = await eventually(async () => ({
      serviceExport: await readServiceExport().then(() => true, (e: unknown) => !isNotFound(e)),
      hubExport: await hubAdmin.get(hubExportPath).then(() => true, (e: unknown) => !isNotFound(e)),
    }), (s) => !s.serviceExport && !s.hubExport, 30_000);
    expect(gone).toEqual({ serviceExport: false, hubExport: false });
    await logsFlushed();
    expect(refusals()).toEqual([]);
  }, 90_000);
});
