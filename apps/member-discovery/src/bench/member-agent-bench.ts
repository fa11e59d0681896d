/**
 * Issue 13's benchmark, end to end: the member agent's bundle under node, as its container runs it, with Private Link
 * discovery on, against a real hub and member kube-apiserver and the Azure emulator with ARM's throttling on, for 240
 * exported LoadBalancer Services on one member (AKS allows 300), 6 of them PLS-backed (AKS's internal load balancer
 * takes 8). Prints the time to publish every export, the Azure reads spent (target: one list per resource group per
 * TTL, not one per Service) and the agent's resident memory (target < 150 MiB). The agent's node runs with its
 * launch flags (AGENT_NODE_FLAGS); --node-flags gives others ('' for none), to compare.
 *   pnpm nx bench member-discovery   (or: pnpm nx bundle member-discovery && pnpm tsx apps/member-discovery/src/bench/member-agent-bench.ts [--node-flags '...'])
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AGENT_NODE_FLAGS } from '@fleet-gateway/agent-flags';
import { CloudProviderStandIn, emulatorIdentityCredential, managedIdentityEnvironment, start } from '@fleet-gateway/azure-emulator';
import { startControlPlane } from '@fleet-gateway/control-plane';
import { collectionPath, KubeClient } from '@fleet-gateway/controller';
import { AgentProcess, createNamespace, residentMiB } from '@fleet-gateway/controller/test-support';
import { SERVICE_ANNOTATIONS } from '@fleet-gateway/member-azure';
import { internalServiceExports, serviceExports, services, type CachedInternalServiceExport, type CachedService } from '@fleet-gateway/member-export';
import { discoveryArgs } from '../test-support/agent-args.js';

const SERVICES = 240;
const PRIVATE_LINK = 6;
const SUBSCRIPTION = '00000000-0000-4000-8000-0000000000b1';
const NODE_RG = 'mc-member-1';
const NAMESPACE = 'bench';
/** The member agent's default inventory TTL (DEFAULT_INVENTORY_TTL_MS): the read window measured after publishing. */
const TTL_MS = 60_000;
const BUNDLE = fileURLToPath(new URL('../../../../dist/apps/member-discovery/main.mjs', import.meta.url));

const { values } = parseArgs({ options: { 'node-flags': { type: 'string', default: AGENT_NODE_FLAGS['member-discovery'].join(' ') } } });
const nodeFlags = values['node-flags'].split(' ').filter((flag) => flag !== '');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(250);
  }
}

async function main(): Promise<void> {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} does not exist; build it with: pnpm nx bundle member-discovery`);
  const dir = await mkdtemp(path.join(tmpdir(), 'fleet-gateway-member-bench-'));
  const [plane, emulator] = await Promise.all([
    startControlPlane({ clusters: ['hub', 'member-1'], controllerManager: false }),
    // ARM's own throttling (reads 250 + 25/s per principal) and Microsoft.Network's limit are on.
    start({ armAuthentication: 'issued-tokens', lroDelayMs: 0 }),
  ]);
  let stopAgent = async () => {};
  try {
    for (const cluster of ['hub', 'member-1']) await plane.installCrds(cluster, { gatewayApi: false, fleet: true });
    const member = new KubeClient(plane.cluster('member-1').kubeConfig());
    const hub = new KubeClient(plane.cluster('hub').kubeConfig());
    await createNamespace(member, NAMESPACE);
    await createNamespace(member, 'fleet-system');
    const hubKubeconfig = await plane.memberHubKubeconfig('member-1');
    emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: NODE_RG });
    const standIn = new CloudProviderStandIn({
      kubeConfig: plane.cluster('member-1').kubeConfig(),
      emulator,
      // AKS's cloud provider runs with cluster name "kubernetes": its internal load balancer is kubernetes-internal.
      settings: { subscriptionId: SUBSCRIPTION, resourceGroup: NODE_RG },
      credential: emulatorIdentityCredential(emulator),
    });
    await standIn.start();

    // The member's Services, given their load balancers (and 6 Private Link Services) by the cloud provider.
    const setupStarted = performance.now();
    for (let i = 0; i < SERVICES; i++) {
      const internal = i < PRIVATE_LINK;
      await member.create(collectionPath(services, NAMESPACE), {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: {
          name: `svc-${i}`,
          annotations: internal ? { [SERVICE_ANNOTATIONS.internal]: 'true', [SERVICE_ANNOTATIONS.plsCreate]: 'true' } : {},
        },
        spec: { type: 'LoadBalancer', selector: { app: `svc-${i}` }, ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
      });
    }
    await until(
      async () =>
        (await member.get<{ items: CachedService[] }>(collectionPath(services, NAMESPACE))).items.filter(
          (s) => (s.status?.loadBalancer?.ingress ?? []).length > 0,
        ).length,
      (n) => n === SERVICES,
      600_000,
      'every Service to get its load balancer address',
    );
    for (let i = 0; i < SERVICES; i++) {
      await member.create(collectionPath(serviceExports, NAMESPACE), {
        apiVersion: 'networking.fleet.azure.com/v1beta1',
        kind: 'ServiceExport',
        metadata: { name: `svc-${i}` },
      });
    }
    console.log(
      `${SERVICES} LoadBalancer Services (${PRIVATE_LINK} with a Private Link Service) and their ServiceExports ready in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );
    // The cloud provider's work is done: stopped, so that every Azure read the emulator counts from here is the agent's.
    await standIn.stop();

    // The agent, with only what a pod would have: its kubeconfig, the hub's scoped one, the managed identity.
    const caFile = path.join(dir, 'emulator-ca.pem');
    await writeFile(caFile, emulator.caCertificate);
    const memberKubeconfig = path.join(dir, 'member.kubeconfig');
    await writeFile(memberKubeconfig, plane.cluster('member-1').kubeConfig().exportConfig());
    emulator.admin.resetCounters();
    const started = performance.now();
    const agent = new AgentProcess(
      BUNDLE,
      [
        ...discoveryArgs('member-1', hubKubeconfig, { subscriptionId: SUBSCRIPTION, nodeResourceGroup: NODE_RG, armEndpoint: emulator.armEndpoint }),
        '--health-probe-bind-address',
        '127.0.0.1:0',
        '--metrics-bind-address',
        '127.0.0.1:0',
        '--log-level',
        'error',
      ],
      { PATH: process.env.PATH, KUBECONFIG: memberKubeconfig, NODE_EXTRA_CA_CERTS: caFile, ...managedIdentityEnvironment(emulator) },
      nodeFlags,
    );
    stopAgent = async () => {
      await agent.stop();
      process.stderr.write(agent.stderr);
    };
    const { pid } = agent;

    const published = (e: CachedInternalServiceExport) => e.spec?.publicAddress !== undefined || e.spec?.privateLinkService !== undefined;
    const exportsOnHub = async () =>
      (await hub.get<{ items: CachedInternalServiceExport[] }>(collectionPath(internalServiceExports, 'fleet-member-member-1'))).items;
    await until(
      async () => (await exportsOnHub()).filter(published).length,
      (n) => n === SERVICES,
      600_000,
      `all ${SERVICES} InternalServiceExports to carry their origin`,
    );
    const publishS = (performance.now() - started) / 1000;
    const atPublish = residentMiB(pid);
    const privateLinks = (await exportsOnHub()).filter((e) => e.spec?.privateLinkService !== undefined).length;
    const reads = () => ({
      loadBalancers: emulator.admin.requestTotal({ method: 'GET', resourceType: 'Microsoft.Network/loadBalancers' }),
      privateLinkServices: emulator.admin.requestTotal({ method: 'GET', resourceType: 'Microsoft.Network/privateLinkServices' }),
      connections: emulator.admin.requestTotal({ method: 'GET', resourceType: 'Microsoft.Network/privateLinkServices/privateEndpointConnections' }),
      throttled: emulator.admin
        .requestCounts()
        .filter((c) => c.status === 429)
        .reduce((sum, c) => sum + c.count, 0),
    });
    const firstReads = reads();
    console.log(`member agent: node ${nodeFlags.join(' ') || '(no flags)'} ${path.relative(process.cwd(), BUNDLE)} (node ${process.version})`);
    console.log(`time to publish all ${SERVICES} exports (${privateLinks} with their Private Link Service): ${publishS.toFixed(1)} s from the agent's start`);
    console.log(
      `  Azure reads until then: ${firstReads.loadBalancers} load balancer lists, ${firstReads.privateLinkServices} Private Link Service lists, ${firstReads.connections} connection reads, ${firstReads.throttled} throttled (naive one list per Service: ${SERVICES * 2})`,
    );
    emulator.admin.resetCounters();
    await sleep(TTL_MS + 5_000);
    const steady = reads();
    const idle = residentMiB(pid);
    console.log(
      `  the next ${(TTL_MS + 5_000) / 1000} s (one TTL of ${TTL_MS / 1000} s; target one list per resource group per TTL): ${steady.loadBalancers} load balancer lists, ${steady.privateLinkServices} Private Link Service lists, ${steady.connections} connection reads, ${steady.throttled} throttled`,
    );
    console.log(
      `  member agent resident memory: ${atPublish.rss.toFixed(1)} MiB when all were published, ${idle.rss.toFixed(1)} MiB a TTL later, peak ${idle.peak.toFixed(1)} MiB (target < 150 MiB)`,
    );
  } finally {
    await stopAgent();
    await emulator.stop();
    await plane.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
