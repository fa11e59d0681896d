import type { HubRequest } from '../plan-approvals.js';
import { PrivateLinkDiscovery, type PublishedPrivateLink } from '../private-link-discovery.js';
import { SERVICE_ANNOTATIONS, type ServiceFacts } from '../service-facts.js';
import { provisionService, requestFromFrontDoor, startMemberBed, type MemberBed } from '../testing/index.js';

/**
 * Prints the Azure-read part of issue 13's benchmark: 240 exported LoadBalancer Services on one member, 6 of them
 * PLS-backed (AKS's internal load balancer takes 8), against the emulator with ARM's throttling on and the default
 * rate limiter. Reads are the emulator's own request counters. Run: pnpm nx run member-azure:bench
 */
const SERVICES = 240;
const PRIVATE_LINK = 6;
const TTL_MS = 60_000;
const RESYNC_MS = 10_000;

async function main(): Promise<void> {
  const bed = await startMemberBed({ limiter: {} });
  try {
    let now = 0;
    const discovery = new PrivateLinkDiscovery(bed.network, { ttlMs: TTL_MS, now: () => now });
    const services = await memberServices(bed);
    const counted = () => ({
      loadBalancers: reads(bed, 'Microsoft.Network/loadBalancers'),
      services: reads(bed, 'Microsoft.Network/privateLinkServices'),
      connections: reads(bed, 'Microsoft.Network/privateLinkServices/privateEndpointConnections'),
      writes: bed.emulator.admin.requestTotal({ method: 'PUT', resourceType: 'Microsoft.Network/privateLinkServices/privateEndpointConnections' }),
    });
    const line = (label: string, resyncs: number) => {
      const c = counted();
      console.log(
        `${label}: ${c.loadBalancers} load balancer lists, ${c.services} PLS lists, ${c.connections} connection lists, ${c.writes} approvals (${resyncs} resyncs of ${SERVICES} Services; naive one-list-per-Service: ${resyncs * PRIVATE_LINK * 2} lists)`,
      );
      bed.emulator.admin.resetCounters();
    };
    const messages = new Map<string, string[]>();
    const resync = () => Promise.all(services.map((service) => discovery.discover({ service, requests: hubRequests(messages.get(service.name) ?? []) })));

    bed.emulator.admin.resetCounters();
    const started = performance.now();
    const first = await resync();
    const firstMs = performance.now() - started;
    const found = first.filter((result) => result.state === 'found').length;
    console.log(
      `${SERVICES} Services (${PRIVATE_LINK} PLS-backed), TTL ${TTL_MS / 1000} s, resync every ${RESYNC_MS / 1000} s: first discovery of all in ${firstMs.toFixed(0)} ms, ${found} PLS found`,
    );
    line('first resync', 1);

    for (let i = 0; i < 5; i++) {
      now += RESYNC_MS;
      await resync();
    }
    line('next 50 s (within the TTL)', 5);
    now += RESYNC_MS;
    await resync();
    line('TTL expired', 1);

    // The hub issues one message per PLS export; Front Door's connection shows up; the agent approves it.
    const published = first.filter((result): result is PublishedPrivateLink => result.state === 'found');
    for (const [i, result] of published.entries()) {
      messages.set(serviceOf(services, result)?.name ?? '', [`fleet-req-${i}`]);
      await requestFromFrontDoor(bed, `fd-${i}`, result.privateLinkService.id, `fleet-req-${i}`);
    }
    bed.emulator.admin.resetCounters();
    let resyncs = 0;
    for (; resyncs < 30; resyncs++) {
      now += RESYNC_MS;
      await resync();
    }
    line('5 min with 6 hub connections left Pending (manual mode)', resyncs);
    const current = (await resync()).filter((result): result is PublishedPrivateLink => result.state === 'found');
    let approved = 0;
    for (const result of current)
      approved += (await discovery.approve(result, hubRequests(messages.get(serviceOf(services, result)?.name ?? '') ?? []))).approved.length;
    for (resyncs = 0; resyncs < 30; resyncs++) {
      now += RESYNC_MS;
      await resync();
    }
    line(`approved ${approved}, then 5 min`, 31);
    console.log(
      `agent-side count (ArmRequestCount): ${discovery.inventory.requests.reads} reads in all; process RSS ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB (emulator in the same process)`,
    );
  } finally {
    await bed.emulator.stop();
  }
}

/** 6 PLS-backed internal Services built by the cloud provider; 234 public ones, whose discovery needs no Azure call. */
async function memberServices(bed: MemberBed): Promise<ServiceFacts[]> {
  const services: ServiceFacts[] = [];
  for (let i = 0; i < PRIVATE_LINK; i++) {
    services.push(await provisionService(bed, { name: `private-${i}`, uid: `${String(i).padStart(8, '0')}-0000-4000-8000-000000000000` }));
  }
  for (let i = PRIVATE_LINK; i < SERVICES; i++) {
    services.push({
      namespace: 'shop',
      name: `public-${i}`,
      ingressIP: `20.50.${i >> 8}.${i & 255}`,
      annotations: { [SERVICE_ANNOTATIONS.plsCreate]: 'false' },
      nodeResourceGroup: bed.settings.resourceGroup,
    });
  }
  return services;
}

const hubRequests = (messages: readonly string[]): HubRequest[] => messages.map((message) => ({ gateway: 'shop/gw', message }));

function serviceOf(services: readonly ServiceFacts[], result: PublishedPrivateLink): ServiceFacts | undefined {
  return services.find((service) => service.ingressIP === result.privateLinkService.internalAddress);
}

function reads(bed: MemberBed, resourceType: string): number {
  return bed.emulator.admin.requestTotal({ method: 'GET', resourceType });
}

await main();
