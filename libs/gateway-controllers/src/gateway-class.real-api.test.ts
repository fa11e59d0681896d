import { createLogger, KubeClient, Manager, objectPath, type ManagedFieldsEntry } from '@fleet-gateway/controller';
import { captureLogLines, eventually, startHubPlane, type HubPlane } from '@fleet-gateway/controller/test-support';
import { CONTROLLER_NAME } from '@fleet-gateway/model';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gatewayClasses, type CachedGatewayClass } from './gateway-api-resources.js';
import { GATEWAY_FIELD_MANAGER, registerGatewayClassController, type GatewayClassControllers } from './register-gateway-class-controller.js';
import { supportedFeaturesFor } from './supported-features.js';

let plane: HubPlane['plane'];
let client: KubeClient;
let manager: Manager;
let classes: GatewayClassControllers;
const logs = captureLogLines();

beforeAll(async () => {
  ({ plane, client } = await startHubPlane());
  // v1.2.1 whatever GATEWAY_API_VERSION says: this suite follows its standard CRD (which prunes supportedFeatures)
  // to the experimental one; gateway-api-releases.real-api.test.ts covers the newer releases.
  await plane.installCrds('hub', { gatewayApi: 'standard', gatewayApiVersion: 'v1.2.1', fleet: false });
  const logger = createLogger({ level: 'debug', stream: logs.stream, fields: { component: 'hub-gateway' } });
  manager = new Manager({ logger });
  classes = registerGatewayClassController({ manager, client, logger, resyncPeriodMs: 300 });
  await manager.start();
});

afterAll(async () => {
  await manager?.shutdown('test over');
  await plane?.stop();
});

const classPath = (name: string) => objectPath(gatewayClasses, name);
const readClass = (name: string) => client.get<CachedGatewayClass>(classPath(name));
const createClass = (name: string, controllerName: string) =>
  client.create(objectPath(gatewayClasses, '').replace(/\/$/, ''), {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'GatewayClass',
    metadata: { name },
    spec: { controllerName },
  });
const accepted = (gc: CachedGatewayClass | undefined) => gc?.status?.conditions?.find((c) => c.type === 'Accepted');
const featureNames = (gc: CachedGatewayClass) =>
  ((gc.status as { supportedFeatures?: { name: string }[] } | undefined)?.supportedFeatures ?? []).map((f) => f.name);
const managers = (gc: CachedGatewayClass) => ((gc.metadata.managedFields ?? []) as ManagedFieldsEntry[]).map((f) => f.manager);
/** Another manager's server-side apply to our class's status (it owns only what it applies last). */
const applyAsAuditor = (status: Record<string, unknown>) =>
  client.patch(
    `${classPath('azure-fleet-afd')}/status`,
    { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'GatewayClass', metadata: { name: 'azure-fleet-afd' }, status },
    'apply',
    { fieldManager: 'auditor', force: true },
  );
/** Lets several resyncs (300 ms) pass, so a write that would repeat has had its chance. */
const severalResyncs = () => new Promise((r) => setTimeout(r, 1_500));

describe('the GatewayClass controller on a real API server', () => {
  it('accepts the classes of networking.fleet.azure.com/afd, with observedGeneration, and leaves other classes alone', async () => {
    await createClass('azure-fleet-afd', CONTROLLER_NAME);
    await createClass('someone-else', 'example.com/other-controller');
    const ours = await eventually(
      () => readClass('azure-fleet-afd'),
      (gc) => accepted(gc)?.reason === 'Accepted',
    );
    expect(accepted(ours)).toMatchObject({
      status: 'True',
      message: `accepted by ${CONTROLLER_NAME}`,
      observedGeneration: ours.metadata.generation,
    });
    expect(managers(ours)).toContain(GATEWAY_FIELD_MANAGER);
    // The standard v1.2.1 CRD does not serve supportedFeatures: none written.
    expect(featureNames(ours)).toEqual([]);

    await severalResyncs();
    const other = await readClass('someone-else');
    expect(managers(other)).not.toContain(GATEWAY_FIELD_MANAGER);
    expect(accepted(other)).toMatchObject({ status: 'Unknown', reason: 'Pending' });
  });

  it('writes nothing while nothing changes, and keeps another manager’s condition', async () => {
    await applyAsAuditor({
      conditions: [{ type: 'example.com/Audited', status: 'True', reason: 'Audited', message: 'by the auditor', lastTransitionTime: '2026-01-01T00:00:00Z' }],
    });
    const before = classes.statusWriter.writes;
    await severalResyncs();
    expect(classes.statusWriter.writes).toBe(before);
    const gc = await readClass('azure-fleet-afd');
    expect(gc.status?.conditions?.map((c) => c.type).sort()).toEqual(['Accepted', 'example.com/Audited']);
  });

  it('follows the generation and refuses a parametersRef', async () => {
    const ref = { group: 'example.com', kind: 'Config', name: 'cfg' };
    await client.patch(classPath('azure-fleet-afd'), { spec: { parametersRef: ref } }, 'merge');
    const refused = await eventually(
      () => readClass('azure-fleet-afd'),
      (gc) => accepted(gc)?.status === 'False',
    );
    expect(accepted(refused)).toMatchObject({
      reason: 'InvalidParameters',
      message: 'parametersRef example.com/Config cfg is not supported: this controller takes no parameters',
      observedGeneration: refused.metadata.generation,
    });
    expect(refused.metadata.generation).toBe(2);

    await client.patch(classPath('azure-fleet-afd'), { spec: { parametersRef: null } }, 'merge');
    const again = await eventually(
      () => readClass('azure-fleet-afd'),
      (gc) => accepted(gc)?.status === 'True',
    );
    expect(accepted(again)?.observedGeneration).toBe(3);
    expect(again.status?.conditions?.map((c) => c.type)).toContain('example.com/Audited');
  });

  it('lists supportedFeatures, sorted, once the experimental CRD serves them, beside another manager’s entry', async () => {
    // The informer's watch, opened under the standard schema, keeps pruning supportedFeatures until it reconnects:
    // the writes below stay flat only because the reconciler reads such a class from the API server.
    await plane.installCrds('hub', { gatewayApi: 'standard', gatewayApiVersion: 'v1.2.1', experimentalGatewayClass: true, fleet: false });
    const listed = await eventually(
      () => readClass('azure-fleet-afd'),
      (gc) => featureNames(gc).length > 0,
    );
    // The features Gateway API v1.2.1 defines: the CRD installed carries no newer release.
    const expected = supportedFeaturesFor('v1.2.1').map((f) => f.name);
    expect(featureNames(listed)).toEqual(expected);
    expect(featureNames(listed)).toEqual([...featureNames(listed)].sort());

    await applyAsAuditor({ supportedFeatures: [{ name: 'ExampleVendorFeature' }] });
    const before = classes.statusWriter.writes;
    await severalResyncs();
    expect(classes.statusWriter.writes).toBe(before);
    const both = await readClass('azure-fleet-afd');
    expect(featureNames(both).sort()).toEqual([...expected, 'ExampleVendorFeature'].sort());
    expect(accepted(both)?.status).toBe('True');
    // The other class still carries nothing of ours.
    expect(managers(await readClass('someone-else'))).not.toContain(GATEWAY_FIELD_MANAGER);
  });
});
