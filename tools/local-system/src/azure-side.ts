/**
 * The Azure side of the local system, run as one long-lived process: the Azure emulator and, for each member
 * cluster, the cloud-provider stand-in that gives its LoadBalancer Services a load balancer frontend and a Private
 * Link Service. Prints each step (its parent relays them as progress), writes <dir>/azure.json once everything
 * serves, and stops cleanly on SIGTERM/SIGINT.
 * With --echo-backends, every LoadBalancer Service of a member is served by one echo backend naming the member.
 * --timing fast (end-to-end suites) shortens Front Door's deployment and Private Link delays to fractions of a second;
 * --edge-seed N makes the edge's weighted origin choice reproducible.
 *   node --import tsx tools/local-system/src/azure-side.ts --dir DIR --member member-1=KUBECONFIG [--member ...] [--echo-backends]
 *       [--timing watchable|fast] [--edge-seed N]
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { DefaultAzureCredential } from '@azure/identity';
import { KubeConfig } from '@kubernetes/client-node';
import { CloudProviderStandIn, managedIdentityEnvironment, OTHER_CREDENTIAL_VARIABLES, seededRandom, start } from '@fleet-gateway/azure-emulator';
import { startBackendServer } from './backend-server.js';
import { startEchoBackend, type EchoBackend } from './echo-backend.js';
import { LOCAL_AFD_RESOURCE_GROUP, LOCAL_SUBSCRIPTION_ID, memberResourceGroup, type AzureSideInfo } from './azure-side-info.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    member: { type: 'string', multiple: true, default: [] },
    'echo-backends': { type: 'boolean', default: false },
    timing: { type: 'string', default: 'watchable' },
    'edge-seed': { type: 'string' },
  },
  strict: true,
});
if (!values.dir) throw new Error('--dir is required');
const dir = values.dir;
const step = (line: string): void => console.log(line);

// watchable: deploymentStatus 10 s NotStarted, 30 s InProgress after provisioning, so a person sees it move; the Private
// Link connection shows up 2 s after the origin and traffic flows 10 s after approval (Azure: minutes).
// fast: the same states, each for a fraction of a second.
// ARM takes only tokens of the emulator's managed-identity endpoint, as Azure takes only Entra ID's.
if (values.timing !== 'watchable' && values.timing !== 'fast') throw new Error(`--timing has invalid value "${values.timing}"; expected watchable or fast`);
const fast = values.timing === 'fast';
const seed = values['edge-seed'] === undefined ? undefined : Number(values['edge-seed']);
if (seed !== undefined && !Number.isInteger(seed)) throw new Error(`--edge-seed has invalid value "${values['edge-seed']}"; expected an integer`);
step('starting the Azure emulator…');
const emulator = await start({
  lroDelayMs: fast ? 20 : 500,
  deployment: fast ? 'fast' : 'watchable',
  privateLink: fast ? { connectionDelayMs: 300, approvalPropagationMs: 1_000 } : { connectionDelayMs: 2_000, approvalPropagationMs: 10_000 },
  ...(seed === undefined ? {} : { random: seededRandom(seed) }),
  armAuthentication: 'issued-tokens',
});
step(`Azure emulator serves ARM at ${emulator.armEndpoint}, the edge at ${emulator.edgeUrl}`);
const caCertificatePath = path.join(dir, 'azure-emulator-ca.pem');
await writeFile(caCertificatePath, emulator.caCertificate);
// ARM refuses writes into a resource group that does not exist: create the hub's and each member's node resource group
// (AKS creates a cluster's node resource group with the cluster).
emulator.admin.createResourceGroup({ subscriptionId: LOCAL_SUBSCRIPTION_ID, name: LOCAL_AFD_RESOURCE_GROUP });
// The cloud-provider stand-ins are AKS's cloud provider, which has a managed identity: this process gets one too.
for (const name of OTHER_CREDENTIAL_VARIABLES) delete process.env[name];
Object.assign(process.env, managedIdentityEnvironment(emulator));
const credential = new DefaultAzureCredential();
const standIns = new Map<string, CloudProviderStandIn>();
const backends: EchoBackend[] = [];
for (const entry of values.member) {
  const [member, kubeconfig] = entry.split('=');
  if (!member || !kubeconfig) throw new Error(`--member expects NAME=KUBECONFIG, got "${entry}"`);
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfig);
  const standIn = new CloudProviderStandIn({
    kubeConfig: kc,
    emulator: { armEndpoint: emulator.armEndpoint, caCertificate: emulator.caCertificate, admin: emulator.admin },
    // AKS runs its cloud provider with cluster name "kubernetes": load balancers kubernetes and kubernetes-internal.
    settings: { subscriptionId: LOCAL_SUBSCRIPTION_ID, resourceGroup: memberResourceGroup(member) },
    credential,
  });
  emulator.admin.createResourceGroup({ subscriptionId: LOCAL_SUBSCRIPTION_ID, name: memberResourceGroup(member) });
  step(`starting the cloud-provider stand-in for ${member} (watching its Services)…`);
  await standIn.start();
  standIns.set(member, standIn);
  if (values['echo-backends']) {
    const backend = await startEchoBackend(member);
    standIn.setDefaultBackend(backend);
    backends.push(backend);
  }
}
const backendServer = await startBackendServer(({ member, namespace, name, port, target }) => {
  const standIn = standIns.get(member);
  if (standIn === undefined) return `no member "${member}" here; the members are ${[...standIns.keys()].join(', ') || 'none'}`;
  standIn.setBackend(namespace, name, port, target);
  return undefined;
});
const info: AzureSideInfo = {
  pid: process.pid,
  armEndpoint: emulator.armEndpoint,
  caCertificatePath,
  edgeUrl: emulator.edgeUrl,
  adminUrl: emulator.admin.url,
  backendsUrl: backendServer.url,
  identityEndpoint: emulator.identityEndpoint,
  identityHeader: emulator.identityHeader,
  subscriptionId: LOCAL_SUBSCRIPTION_ID,
  afdResourceGroup: LOCAL_AFD_RESOURCE_GROUP,
  members: values.member.map((m) => m.split('=')[0] ?? m),
};
// Said before azure.json appears, so that the parent, which stops reading the log then, relays it. The file is
// written whole or not at all: the parent takes its appearance as "ready" and reads it at once.
step('Azure side ready');
await writeFile(path.join(dir, 'azure.json.tmp'), JSON.stringify(info, null, 2));
await rename(path.join(dir, 'azure.json.tmp'), path.join(dir, 'azure.json'));

const shutdown = (): void => {
  void Promise.all([
    ...[...standIns.values()].map((s) => s.stop()),
    backendServer.close(),
    ...backends.map((b) => b.close()),
    emulator.stop(),
    rm(path.join(dir, 'azure.json'), { force: true }),
  ]).then(() => process.exit(0));
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);
