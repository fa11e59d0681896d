import { NetworkManagementClient } from '@azure/arm-network';
import { AzureLoadBalancerWriter, planLoadBalancer, stubCredential, type CloudSettings, type RunningEmulator } from '@fleet-gateway/azure-emulator';
import { startHarness, TEST_SCOPE, type Harness, type HarnessOptions } from '@fleet-gateway/azure-frontdoor/test-support';
import { createMemberNetworkClient } from '../network-client.js';
import { SERVICE_ANNOTATIONS, type ServiceFacts } from '../service-facts.js';

/** Test support: the emulator, the hub's AFD clients (to make Front Door request connections) and a member's network. */
export interface MemberBed {
  readonly harness: Harness;
  readonly emulator: RunningEmulator;
  /** The member agent's client, wired as the agent wires it (retry policy, shared limiter). */
  readonly network: NetworkManagementClient;
  readonly settings: CloudSettings;
  /** What cloud-provider-azure writes for a Service (the emulator's cloud-provider stand-in, without Kubernetes). */
  readonly cloudProvider: AzureLoadBalancerWriter;
}

export const MEMBER_SETTINGS: CloudSettings = {
  subscriptionId: TEST_SCOPE.subscriptionId,
  resourceGroup: 'mc-member-1',
  location: 'eastus2',
  clusterName: 'kubernetes',
  vnetName: 'aks-vnet',
  subnetName: 'aks-subnet',
};

export async function startMemberBed(options: HarnessOptions = {}): Promise<MemberBed> {
  const harness = await startHarness(options);
  const { emulator } = harness;
  emulator.admin.createResourceGroup({ subscriptionId: MEMBER_SETTINGS.subscriptionId, name: MEMBER_SETTINGS.resourceGroup });
  const network = createMemberNetworkClient({
    credential: stubCredential,
    subscriptionId: MEMBER_SETTINGS.subscriptionId,
    endpoint: emulator.armEndpoint,
    tlsOptions: { ca: emulator.caCertificate },
    rateLimiter: harness.limiter,
    retry: { baseDelayMs: 1, maxDelayMs: 5, ...options.retry },
  });
  // The stand-in writes as AKS does, with its own client (not the agent's).
  const writer = new NetworkManagementClient(stubCredential, MEMBER_SETTINGS.subscriptionId, {
    endpoint: emulator.armEndpoint,
    tlsOptions: { ca: emulator.caCertificate },
  });
  return { harness, emulator, network, settings: MEMBER_SETTINGS, cloudProvider: new AzureLoadBalancerWriter(writer, MEMBER_SETTINGS) };
}

export interface TestService {
  readonly namespace?: string;
  readonly name: string;
  readonly uid: string;
  readonly annotations?: Record<string, string>;
  /** Default true: an internal load balancer Service with `azure-pls-create: "true"`. */
  readonly privateLink?: boolean;
}

/** Lets the cloud provider build the Service's Azure side; returns the facts the member agent would read from Kubernetes. */
export async function provisionService(bed: MemberBed, service: TestService): Promise<ServiceFacts> {
  const annotations: Record<string, string> = {
    [SERVICE_ANNOTATIONS.internal]: 'true',
    ...(service.privateLink === false ? {} : { [SERVICE_ANNOTATIONS.plsCreate]: 'true' }),
    ...service.annotations,
  };
  const namespace = service.namespace ?? 'shop';
  const plan = planLoadBalancer(
    { metadata: { namespace, name: service.name, uid: service.uid, annotations }, spec: { type: 'LoadBalancer', ports: [{ port: 80, protocol: 'TCP' }] } },
    bed.settings,
  );
  const address = await bed.cloudProvider.ensure(plan);
  return { namespace, name: service.name, ingressIP: address.ip, annotations, nodeResourceGroup: bed.settings.resourceGroup };
}

/** The Private Link Service cloud-provider-azure names by default for a Service UID: `pls-a<uid without dashes>`. */
export function defaultPlsName(uid: string): string {
  return `pls-${`a${uid.replace(/-/g, '')}`.slice(0, 32)}`;
}
