import {
  createLogger,
  customResourceDefinitions,
  EventRecorder,
  isNotFound,
  KubeClient,
  Manager,
  objectPath,
  type CustomResourceDefinition,
} from '@fleet-gateway/controller';
import { captureLogLines, eventually, logsFlushed, startHubPlane, type HubPlane } from '@fleet-gateway/controller/test-support';
import { fleetCrds } from '@fleet-gateway/control-plane';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkFleetCrds, FLEET_CRDS_CHECK, FleetCrdPrerequisite, INTERNAL_SERVICE_EXPORT_CRD, UPSTREAM_CRD_INSTALLER_LABEL } from '@fleet-gateway/fleet-schema';
import { withoutExtensionFields } from '@fleet-gateway/fleet-schema/test-support';
import { internalServiceExports, serviceImports, type CachedInternalServiceExport } from './fleet-resources.js';
import { registerFleetHubControllers } from './register-fleet-hub-controllers.js';
import { exportOf } from './test-support/exports.js';

let plane: HubPlane['plane'];
let client: KubeClient;
let manager: Manager;
let ours: CustomResourceDefinition;
const logs = captureLogLines();

beforeAll(async () => {
  ({ plane, client } = await startHubPlane({ namespaces: ['shop', 'fleet-member-member-1'] }));
  await plane.installCrds('hub', { gatewayApi: false, fleet: true });
  ours = (await fleetCrds()).find((c) => c.metadata.name === INTERNAL_SERVICE_EXPORT_CRD) as unknown as CustomResourceDefinition;
  const logger = createLogger({ level: 'info', stream: logs.stream, fields: { component: 'hub-gateway' } });
  manager = new Manager({ logger, health: { host: '127.0.0.1', port: 0 } });
  const prerequisite = new FleetCrdPrerequisite({ manager, client, logger });
  const events = manager.addEventRecorder(
    new EventRecorder({ client, reportingController: 'networking.fleet.azure.com/hub-gateway', reportingInstance: 'test', logger }),
  );
  registerFleetHubControllers({ manager, client, events, logger, prerequisite, resyncPeriodMs: 300 });
  await manager.start();
});

afterAll(async () => {
  await manager?.shutdown('test over');
  await plane?.stop();
});

const readyz = async () => {
  const response = await fetch(`${manager.healthUrl}/readyz`);
  return { status: response.status, text: await response.text() };
};
/** What upstream's chart or its net-crd-installer does: replace the CRD with its own schema. */
const install = (crd: CustomResourceDefinition) =>
  client.patch(objectPath(customResourceDefinitions, INTERNAL_SERVICE_EXPORT_CRD), crd, 'apply', { fieldManager: 'upstream-installer', force: true });
const exportPath = objectPath(internalServiceExports, 'shop-web', 'fleet-member-member-1');
const serviceImportExists = () =>
  client.get(objectPath(serviceImports, 'web', 'shop')).then(
    () => true,
    (error: unknown) => {
      if (isNotFound(error)) return false;
      throw error;
    },
  );
const errorLines = async () => {
  await logsFlushed();
  return logs.lines.filter((l) => l['level'] === 'error').map((l) => l['message']);
};

describe('the Fleet CRD prerequisite on a real API server', () => {
  it('is ready with our CRD', async () => {
    const probe = await eventually(readyz, (r) => r.status === 200);
    expect(probe.text).toContain(`[+]${FLEET_CRDS_CHECK} ok`);
    expect(await errorLines()).toEqual([]);
  });

  it('is not ready with upstream’s schema, and logs one line saying what is installed, needed and how to fix it', async () => {
    const upstream = withoutExtensionFields(ours);
    const expected = checkFleetCrds(upstream).message!;
    await install(upstream);
    const probe = await eventually(readyz, (r) => r.status === 503);
    expect(probe.text).toContain(`[-]${FLEET_CRDS_CHECK} failed: ${expected}`);
    expect(expected).toContain('does not serve spec.internalLoadBalancerIP');
    await eventually(errorLines, (lines) => lines.length > 0);
    expect(await errorLines()).toEqual([expected]);

    // A member publishes meanwhile: the hub's Fleet side touches nothing (no finalizer, no ServiceImport).
    const { apiVersion, kind, metadata, spec } = exportOf({ cluster: 'member-1' });
    await client.patch(exportPath, { apiVersion, kind, metadata: { name: metadata.name, namespace: metadata.namespace }, spec }, 'apply', {
      fieldManager: 'member-discovery-member-1',
      force: true,
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect((await client.get<CachedInternalServiceExport>(exportPath)).metadata.finalizers).toBeUndefined();
    expect(await serviceImportExists()).toBe(false);
  });

  it('says so when net-crd-installer’s label is on it', async () => {
    await install(withoutExtensionFields(ours, { [UPSTREAM_CRD_INSTALLER_LABEL]: 'true' }));
    const probe = await eventually(readyz, (r) => r.text.includes('net-crd-installer'));
    expect(probe.status).toBe(503);
    expect(probe.text).toContain(`label ${UPSTREAM_CRD_INSTALLER_LABEL}=true`);
    const lines = await eventually(errorLines, (l) => l.length === 2);
    expect(lines[1]).toContain("after turning off fleet-networking's net-crd-installer");
  });

  it('is ready again once our CRD is back, logs that once, and the Fleet side resumes', async () => {
    await install(ours);
    const probe = await eventually(readyz, (r) => r.status === 200);
    expect(probe.text).toContain(`[+]${FLEET_CRDS_CHECK} ok`);
    await logsFlushed();
    expect(logs.lines.filter((l) => l['message'] === `CRD ${INTERNAL_SERVICE_EXPORT_CRD} serves the Fleet extension fields`)).toHaveLength(2);
    expect(await errorLines()).toHaveLength(2);
    expect(await eventually(serviceImportExists, (exists) => exists)).toBe(true);
  });
});
