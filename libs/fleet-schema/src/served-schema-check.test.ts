import type { CustomResourceDefinition, SchemaNode } from '@fleet-gateway/controller';
import { fleetCrds } from '@fleet-gateway/control-plane';
import { describe, expect, it } from 'vitest';
import { EXTENSION_FIELDS, INTERNAL_SERVICE_EXPORT_CRD } from './fleet-crd-check.js';
import { checkServedSchema, type OpenApiDocument } from './served-schema-check.js';
import { withoutExtensionFields } from './test-support/upstream-crd.js';

const ours = async () => (await fleetCrds()).find((c) => c.metadata.name === INTERNAL_SERVICE_EXPORT_CRD) as unknown as CustomResourceDefinition;

/** The OpenAPI v3 document the API server publishes for a CRD's v1alpha1 (its schema under the GVK's name). */
function publishedDocument(crd: CustomResourceDefinition, kind = 'InternalServiceExport'): OpenApiDocument {
  const schema = crd.spec.versions.find((v) => v.name === 'v1alpha1')?.schema?.openAPIV3Schema as SchemaNode;
  const gvk = [{ group: 'networking.fleet.azure.com', version: 'v1alpha1', kind }];
  return { components: { schemas: { [`com.azure.fleet.networking.v1alpha1.${kind}`]: { ...schema, 'x-kubernetes-group-version-kind': gvk } } } };
}

describe('checkServedSchema', () => {
  it('accepts the schema the hub publishes for the CRD of charts/fleet-networking-crds', async () => {
    expect(checkServedSchema(publishedDocument(await ours()))).toEqual({ ok: true });
  });

  it("names every extension field upstream's schema lacks, what is needed and how to fix it, on one line", async () => {
    const { ok, message } = checkServedSchema(publishedDocument(withoutExtensionFields(await ours())));
    expect(ok).toBe(false);
    expect(message).toBe(
      `the hub's InternalServiceExport (networking.fleet.azure.com/v1alpha1) does not serve ${EXTENSION_FIELDS.map((p) => p.join('.')).join(', ')} (upstream fleet-networking's schema): ` +
        'the hub would drop what this member publishes; the hub needs the extended Fleet CRDs of charts/fleet-networking-crds; ' +
        'fix: install or upgrade the hub chart, which carries them (helm upgrade --install --take-ownership --force-conflicts hub-gateway charts/hub-gateway -n fleet-system) on the hub',
    );
    expect(message).not.toContain('\n');
  });

  it('says when the hub publishes no InternalServiceExport at all', async () => {
    const expected =
      /^the hub serves no InternalServiceExport of networking\.fleet\.azure\.com\/v1alpha1 \(\/openapi\/v3\/apis\/networking\.fleet\.azure\.com\/v1alpha1\); the hub needs/;
    expect(checkServedSchema(undefined).message).toMatch(expected);
    expect(checkServedSchema(publishedDocument(await ours(), 'ServiceImport')).message).toMatch(expected);
  });
});
