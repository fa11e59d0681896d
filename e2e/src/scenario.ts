import { readFileSync } from 'node:fs';
import { CdnManagementClient } from '@azure/arm-cdn';
import { FrontDoorManagementClient } from '@azure/arm-frontdoor';
import { NetworkManagementClient } from '@azure/arm-network';
import { DefaultAzureCredential } from '@azure/identity';
import { emulatorIdentityCredential, sdkClientOptions } from '@fleet-gateway/azure-emulator';
import { OWNERSHIP_TAGS, SINK_HOST_SUFFIX } from '@fleet-gateway/azure-frontdoor';
import { RESOURCES } from '@fleet-gateway/api-types';
import { defaultGatewayApiVersion, GATEWAY_API_VERSIONS, NEWEST_GATEWAY_API_VERSION } from '@fleet-gateway/control-plane';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { requestThroughEdge, type EchoAnswer } from '@fleet-gateway/local-system';
import { describe, inject } from 'vitest';
import { systemUnderTest, type SystemUnderTest } from './system-under-test.js';

/**
 * What a scenario needs beyond the export/import core. `emulator`: something real Azure has no equivalent of — the
 * emulator's admin API (ARM write counters, the edges' routing versions, the seeded edge) or the cloud-provider
 * stand-in's echo backend answering for every member Service (the scenarios' manifests carry no pods).
 * `listener-sets`: a hub serving Gateway API v1.5 or later.
 */
export type Feature = 'front-door' | 'emulator' | 'listener-sets';

const FEATURE_SWITCHES: Record<Feature, { readonly enabled: (system: SystemUnderTest) => boolean; readonly how: string }> = {
  'front-door': { enabled: (system) => system.frontDoor, how: 'ENABLE_AZURE_FRONT_DOOR=true' },
  emulator: { enabled: (system) => system.mode === 'local', how: 'E2E_MODE=local' },
  // The local system's hub serves the release GATEWAY_API_VERSION names, else the newest; ListenerSet came in v1.5.
  'listener-sets': {
    enabled: () => GATEWAY_API_VERSIONS.indexOf(defaultGatewayApiVersion(NEWEST_GATEWAY_API_VERSION)) >= GATEWAY_API_VERSIONS.indexOf('v1.5.1'),
    how: 'GATEWAY_API_VERSION=v1.5.1 or later',
  },
};

/**
 * A scenario: a describe block that declares the features it needs. Without one of them it is skipped in the open —
 * its title says which setting adds it, and the summary counts it as skipped.
 */
export function scenario(name: string, needs: readonly Feature[], body: (system: SystemUnderTest) => void): void {
  const system = systemUnderTest(inject('system'));
  const missing = needs.filter((feature) => !FEATURE_SWITCHES[feature].enabled(system));
  const title = missing.length === 0 ? name : `${name} (not run: needs ${missing.map((f) => FEATURE_SWITCHES[f].how).join(', ')})`;
  describe.skipIf(missing.length > 0)(title, () => body(system));
}

/**
 * ARM clients of the system: in local mode the emulator's, with a token of its managed-identity endpoint (as an
 * operator's az would have); in Azure mode public ARM's, with the operator's own DefaultAzureCredential (az login).
 */
export function armClients(system: SystemUnderTest): { cdn: CdnManagementClient; network: NetworkManagementClient; frontDoor: FrontDoorManagementClient } {
  if (system.mode === 'azure') {
    const credential = new DefaultAzureCredential();
    const { subscriptionId } = system.azure;
    return {
      cdn: new CdnManagementClient(credential, subscriptionId),
      network: new NetworkManagementClient(credential, subscriptionId),
      frontDoor: new FrontDoorManagementClient(credential, subscriptionId),
    };
  }
  const credential = emulatorIdentityCredential(system.azure);
  const options = sdkClientOptions({ armEndpoint: system.azure.armEndpoint, caCertificate: readFileSync(system.azure.caCertificatePath, 'utf8') });
  return {
    cdn: new CdnManagementClient(credential, system.azure.subscriptionId, options),
    network: new NetworkManagementClient(credential, system.azure.subscriptionId, options),
    // WAF policies (Microsoft.Network/frontdoorWebApplicationFirewallPolicies) are read with Front Door's own SDK.
    frontDoor: new FrontDoorManagementClient(credential, system.azure.subscriptionId, options),
  };
}

/**
 * A request to a Gateway's endpoint host name: in local mode through the emulator's edge (Host header), in Azure
 * mode HTTPS to the host name itself, as a client on the internet sends it.
 */
export async function throughEdge(system: SystemUnderTest, hostname: string, requestPath = '/'): Promise<{ status: number; answer?: EchoAnswer }> {
  if (system.mode === 'local') return requestThroughEdge(system.azure.edgeUrl, hostname, requestPath);
  const response = await fetch(`https://${hostname}${requestPath}`, { redirect: 'manual' });
  const body = await response.text();
  try {
    return { status: response.status, answer: JSON.parse(body) as EchoAnswer };
  } catch {
    return { status: response.status };
  }
}

/** The emulator's ARM request counters (admin API), e.g. to prove an invalid edit wrote nothing. */
export async function armWrites(system: SystemUnderTest): Promise<number> {
  const entries = (await (await fetch(`${system.azure.adminUrl}/counters`)).json()) as { method: string; count: number }[];
  return entries.filter((e) => e.method !== 'GET').reduce((sum, e) => sum + e.count, 0);
}

/** Waits until the emulator has seen no ARM write for `quietMs` (earlier work settled), and returns the count. */
export async function settledWrites(system: SystemUnderTest, quietMs = 3_000): Promise<number> {
  let count = await armWrites(system);
  for (let since = Date.now(); Date.now() - since < quietMs;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await armWrites(system);
    if (now !== count) [count, since] = [now, Date.now()];
  }
  return count;
}

/** Waits until every simulated edge serves the emulator's latest routing table (a change has propagated). */
export async function edgesPropagated(system: SystemUnderTest, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = (await (await fetch(`${system.azure.adminUrl}/edge`)).json()) as { latestVersion: number; edges: { version: number }[] };
    if (status.edges.every((edge) => edge.version === status.latestVersion)) return;
    if (Date.now() > deadline) throw new Error(`the edges did not reach routing version ${status.latestVersion} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** After a change: the hub wrote what it had to, and every edge serves it. */
export async function changePropagated(system: SystemUnderTest): Promise<void> {
  await settledWrites(system);
  await edgesPropagated(system);
}

/** One request through the edge: the path asked, the status, and the member that answered (none: no backend did). */
export interface EdgeAnswer {
  readonly path: string;
  readonly status: number;
  readonly cluster?: string;
}

/**
 * Requests through the edge, one at a time, to each of `paths` in turn: at least `during.requests` of them and, when
 * `during.ms` is given, for at least that long (a sustained window: no edge and no moment after a change escapes).
 */
export async function answersThroughEdge(
  system: SystemUnderTest,
  hostname: string,
  paths: readonly string[],
  during: { readonly requests: number; readonly ms?: number },
): Promise<EdgeAnswer[]> {
  const answers: EdgeAnswer[] = [];
  for (const started = Date.now(); Date.now() - started < (during.ms ?? 0) || answers.length < during.requests;) {
    const path = paths[answers.length % paths.length] ?? '/';
    const { status, answer } = await throughEdge(system, hostname, path);
    answers.push({ path, status, ...(answer ? { cluster: answer.cluster } : {}) });
  }
  return answers;
}

/** The AFD profile the hub made for a Gateway (found by its ownership tags) with every backend origin in it. */
export async function frontDoorOf(system: SystemUnderTest, namespace: string, name: string) {
  const { cdn } = armClients(system);
  const group = system.azure.afdResourceGroup;
  for await (const profile of cdn.profiles.listByResourceGroup(group)) {
    if (profile.tags?.[OWNERSHIP_TAGS.gatewayNamespace] !== namespace || profile.tags?.[OWNERSHIP_TAGS.gatewayName] !== name) continue;
    const origins = [];
    for await (const originGroup of cdn.afdOriginGroups.listByProfile(group, profile.name ?? '')) {
      try {
        for await (const origin of cdn.afdOrigins.listByOriginGroup(group, profile.name ?? '', originGroup.name ?? '')) {
          // The withdrawal sink (an origin that cannot resolve, for rules whose backends are gone) is not a backend.
          if (!origin.hostName?.endsWith(SINK_HOST_SUFFIX)) origins.push({ originGroup: originGroup.name ?? '', ...origin });
        }
      } catch (error) {
        // The hub deleted the group between the two lists (ParentResourceNotFound): it has no origins left.
        if ((error as { statusCode?: number }).statusCode !== 404) throw error;
      }
    }
    return { profile, origins };
  }
  return undefined;
}

/**
 * Waits until a Gateway serves: Programmed (which can precede its backends: a route whose ServiceImport is not there
 * yet has nothing to program) and the edge answering 200 from every one of `members` on `path`. Returns the AFD
 * endpoint host name; on timeout it throws saying what was last seen.
 */
export async function servingGateway(
  system: SystemUnderTest,
  namespace: string,
  name: string,
  options: { readonly members: readonly string[]; readonly path?: string; readonly timeoutMs?: number },
): Promise<string> {
  const deadline = Date.now() + (options.timeoutMs ?? 150_000);
  const gatewayPath = objectPath(RESOURCES.Gateway, name, namespace);
  const seen = new Set<string>();
  let last = 'no status yet';
  while (Date.now() < deadline) {
    const gateway = await system.hub
      .get<{ status?: { conditions?: Condition[]; addresses?: { type?: string; value: string }[] } }>(gatewayPath)
      .catch(() => undefined);
    const programmed = gateway?.status?.conditions?.find((c) => c.type === 'Programmed');
    const hostname = gateway?.status?.addresses?.find((a) => a.type === 'Hostname')?.value;
    last = programmed ? `Programmed=${programmed.status}: ${programmed.message}` : last;
    if (programmed?.status === 'True' && hostname) {
      const { status, answer } = await throughEdge(system, hostname, options.path ?? '/');
      if (status === 200 && answer) seen.add(answer.cluster);
      last = `${last}; the edge answered ${status}, served so far by ${[...seen].join(', ') || 'none'}`;
      if (options.members.every((m) => seen.has(m))) {
        // One edge serving is not all of them: each takes a change with its own delay. Only the emulator says which
        // routing version each edge serves; real AFD publishes no such per-POP status.
        if (system.mode === 'local') await edgesPropagated(system);
        return hostname;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Gateway ${namespace}/${name} did not serve from ${options.members.join(', ')}: ${last}`);
}
