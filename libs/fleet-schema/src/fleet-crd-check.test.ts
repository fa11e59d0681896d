import type { CustomResourceDefinition } from '@fleet-gateway/controller';
import { fleetCrds } from '@fleet-gateway/control-plane';
import { describe, expect, it } from 'vitest';
import { checkFleetCrds, EXTENSION_FIELDS, INTERNAL_SERVICE_EXPORT_CRD, UPSTREAM_CRD_INSTALLER_LABEL } from './fleet-crd-check.js';
import { withoutExtensionFields } from './test-support/upstream-crd.js';

const ours = async () => (await fleetCrds()).find((c) => c.metadata.name === INTERNAL_SERVICE_EXPORT_CRD) as unknown as CustomResourceDefinition;

describe('checkFleetCrds', () => {
  it('accepts the CRD of charts/fleet-networking-crds', async () => {
    expect(checkFleetCrds(await ours())).toEqual({ ok: true });
  });

  it('names every missing extension field, what is needed and how to fix it, on one line', async () => {
    const result = checkFleetCrds(withoutExtensionFields(await ours()));
    expect(result.ok).toBe(false);
    expect(result.message).toBe(
      `CRD ${INTERNAL_SERVICE_EXPORT_CRD} does not serve ${EXTENSION_FIELDS.map((p) => p.join('.')).join(', ')} (upstream fleet-networking's schema); ` +
        'the hub needs the extended Fleet CRDs of charts/fleet-networking-crds; ' +
        'fix: install or upgrade the hub chart, which carries them (helm upgrade --install --take-ownership --force-conflicts hub-gateway charts/hub-gateway -n fleet-system)',
    );
    expect(result.message).not.toContain('\n');
  });

  it('says when upstream’s net-crd-installer installed it, and that it must be turned off first', async () => {
    const upstream = withoutExtensionFields(await ours(), { [UPSTREAM_CRD_INSTALLER_LABEL]: 'true' });
    const { message } = checkFleetCrds(upstream);
    expect(message).toContain(`installed by its net-crd-installer (label ${UPSTREAM_CRD_INSTALLER_LABEL}=true)`);
    expect(message).toContain("after turning off fleet-networking's net-crd-installer");
  });

  it('names a single missing field alone, and says when the CRD is not installed', async () => {
    const crd = await ours();
    const oneMissing = structuredClone(crd) as unknown as {
      spec: { versions: { schema: { openAPIV3Schema: { properties: { status: { properties: Record<string, unknown> } } } } }[] };
    };
    delete oneMissing.spec.versions[0]!.schema.openAPIV3Schema.properties.status.properties['privateLinkRequests'];
    expect(checkFleetCrds(oneMissing as unknown as CustomResourceDefinition).message).toMatch(/does not serve status\.privateLinkRequests \(/);
    expect(checkFleetCrds(undefined).message).toMatch(/^CRD internalserviceexports\.networking\.fleet\.azure\.com is not installed; the hub needs/);
  });
});
