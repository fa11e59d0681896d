import { GATEWAY_API_VERSIONS, type GatewayApiVersion } from '@fleet-gateway/control-plane';
import { createLogger, KubeClient, Manager, objectPath } from '@fleet-gateway/controller';
import { captureLogLines, eventually, startHubPlane, type HubPlane } from '@fleet-gateway/controller/test-support';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayClasses, type CachedGatewayClass } from './gateway-api-resources.js';
import { releaseAtLeast } from './gateway-api-release.js';
import { registerGatewayClassController, type GatewayClassControllers } from './register-gateway-class-controller.js';
import { logReleaseChanges, servedGatewayApi, servesKind } from './served-gateway-api.js';
import { supportedFeaturesFor } from './supported-features.js';

let plane: HubPlane['plane'];
let client: KubeClient;
let manager: Manager;
let classes: GatewayClassControllers;
const logs = captureLogLines();
const [oldest, ...newer] = GATEWAY_API_VERSIONS;

beforeAll(async () => {
  ({ plane, client } = await startHubPlane());
  await plane.installCrds('hub', { gatewayApi: 'standard', gatewayApiVersion: oldest, fleet: false });
  const logger = createLogger({ level: 'debug', stream: logs.stream, fields: { component: 'hub-gateway' } });
  const served = await servedGatewayApi(client);
  manager = new Manager({ logger });
  classes = registerGatewayClassController({ manager, client, logger, resyncPeriodMs: 300 });
  classes.gatewayClassCrd.subscribe(logReleaseChanges(logger, served.bundle));
  await manager.start();
  await client.create(objectPath(gatewayClasses, '').replace(/\/$/, ''), {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GatewayClass',
    metadata: { name: 'azure-fleet-afd' },
    spec: { controllerName: CONTROLLER_NAME },
  });
});

afterAll(async () => {
  await manager?.shutdown('test over');
  await plane?.stop();
});

const readClass = () => client.get<CachedGatewayClass>(objectPath(gatewayClasses, 'azure-fleet-afd'));
const featureNames = (gc: CachedGatewayClass) =>
  ((gc.status as { supportedFeatures?: { name: string }[] } | undefined)?.supportedFeatures ?? []).map((f) => f.name);
const releaseChanges = () => logs.lines.filter((l) => l.message === 'the hub’s Gateway API CRDs changed release');
/** Lets several resyncs (300 ms) pass, so a write that would come has had its chance. */
const severalResyncs = () => new Promise((r) => setTimeout(r, 1_500));

/** What each release's standard channel serves, as its CRDs declare it. */
const expectedOf = (release: GatewayApiVersion) => ({
  // The standard GatewayClass schema keeps status.supportedFeatures from v1.4 on (v1.2 and v1.3 prune it).
  supportedFeatures: releaseAtLeast(release, 'v1.4.1') ? supportedFeaturesFor(release).map((f) => f.name) : [],
  listenerSets: releaseAtLeast(release, 'v1.5.1'),
  referenceGrantV1: releaseAtLeast(release, 'v1.5.1'),
});

describe('a hub serving each Gateway API release, upgraded in place under a running agent', () => {
  it(`on ${oldest}: discovery reads the release and kinds, and the class lists no supportedFeatures (pruned)`, async () => {
    const served = await servedGatewayApi(client);
    expect(served.bundle).toEqual({ release: oldest, bundleVersion: oldest, channel: 'standard' });
    expect(servesKind(served, 'Gateway')).toBe(true);
    expect(servesKind(served, 'ReferenceGrant', 'v1beta1')).toBe(true);
    expect(servesKind(served, 'ReferenceGrant')).toBe(false);
    expect(servesKind(served, 'ListenerSet')).toBe(false);
    const accepted = await eventually(readClass, (gc) => gc.status?.conditions?.some((c) => c.type === 'Accepted' && c.status === 'True') ?? false);
    expect(featureNames(accepted)).toEqual([]);
  });

  it.each(newer)('upgraded to %s: the served release is logged and discovered, and the class lists what it supports there', async (release) => {
    const expected = expectedOf(release);
    await plane.installCrds('hub', { gatewayApi: 'standard', gatewayApiVersion: release, fleet: false });

    await expect.poll(() => releaseChanges().at(-1)?.to, { timeout: 10_000 }).toMatchObject({ release, bundleVersion: release, channel: 'standard' });
    const served = await servedGatewayApi(client);
    expect(served.bundle.release).toBe(release);
    expect(servesKind(served, 'ListenerSet')).toBe(expected.listenerSets);
    expect(servesKind(served, 'ReferenceGrant')).toBe(expected.referenceGrantV1);
    expect(servesKind(served, 'ReferenceGrant', 'v1beta1')).toBe(true);

    await expect.poll(async () => featureNames(await readClass()), { timeout: 10_000 }).toEqual(expected.supportedFeatures);
    // Steady: no write repeats once the class holds the release's list.
    const before = classes.statusWriter.writes;
    await severalResyncs();
    expect(classes.statusWriter.writes).toBe(before);
    expect(featureNames(await readClass())).toEqual(expected.supportedFeatures);
  });
});
