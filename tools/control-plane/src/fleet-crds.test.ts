import { describe, expect, it } from 'vitest';
import { crdExtensionFields, renderCrdExtensionTable } from './crd-extension-table.js';
import { fleetCrds, type CustomResourceDefinitionManifest } from './crds.js';

// Upstream fleet-networking's CRDs (main @ 4fcffcf; ../shared/reference/upstream-contract.md §1), as the facts that
// make ours schema-compatible: names, versions and storage, status subresource, printer columns, the CEL name
// rule, and the fields (with their validation) that upstream writers and readers rely on.
const NAME_RULE = [{ rule: 'size(self.metadata.name) < 64', message: 'metadata.name max length is 63' }];
const UPSTREAM = {
  ServiceExport: {
    shortNames: ['svcexport'],
    versions: [
      { name: 'v1alpha1', served: true, storage: false },
      { name: 'v1beta1', served: true, storage: true },
    ],
    printerColumns: [
      { name: 'Is-Valid', type: 'string', jsonPath: ".status.conditions[?(@.type=='Valid')].status" },
      { name: 'Is-Conflicted', type: 'string', jsonPath: ".status.conditions[?(@.type=='Conflict')].status" },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
    validations: NAME_RULE,
    spec: undefined,
    status: ['conditions'],
  },
  ServiceImport: {
    shortNames: ['svcimport'],
    versions: [{ name: 'v1alpha1', served: true, storage: true }],
    printerColumns: undefined,
    validations: NAME_RULE,
    spec: undefined,
    status: ['clusters', 'ips', 'ports', 'sessionAffinity', 'sessionAffinityConfig', 'type'],
  },
  InternalServiceExport: {
    shortNames: ['internalsvcexport'],
    versions: [{ name: 'v1alpha1', served: true, storage: true }],
    printerColumns: undefined,
    validations: undefined,
    spec: ['isDNSLabelConfigured', 'isInternalLoadBalancer', 'ports', 'publicIPResourceID', 'serviceReference', 'type', 'weight'],
    status: ['conditions'],
  },
} as const;

type Schema = {
  type?: string;
  description?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  required?: string[];
  [key: string]: unknown;
};

const root = (crd: CustomResourceDefinitionManifest, version: string): Schema =>
  crd.spec.versions.find((v) => v.name === version)?.schema?.openAPIV3Schema as Schema;

async function crdOf(kind: string): Promise<CustomResourceDefinitionManifest> {
  const crd = (await fleetCrds()).find((c) => c.spec.names.kind === kind);
  if (!crd) throw new Error(`charts/fleet-networking-crds has no ${kind}`);
  return crd;
}

/** Extension fields of the InternalServiceExport: what it has beyond upstream's spec and status. */
async function extensions(): Promise<{ path: string; schema: Schema }[]> {
  const schema = root(await crdOf('InternalServiceExport'), 'v1alpha1');
  const found: { path: string; schema: Schema }[] = [];
  for (const section of ['spec', 'status'] as const) {
    const upstream: readonly string[] = UPSTREAM.InternalServiceExport[section];
    for (const [name, field] of Object.entries(schema.properties?.[section]?.properties ?? {})) {
      if (!upstream.includes(name)) found.push({ path: `${section}.${name}`, schema: field });
    }
  }
  return found;
}

describe('Fleet CRDs (charts/fleet-networking-crds) against upstream fleet-networking', () => {
  it.each(Object.keys(UPSTREAM) as (keyof typeof UPSTREAM)[])('%s keeps upstream names, versions, subresource, columns and rules', async (kind) => {
    const expected = UPSTREAM[kind];
    const crd = await crdOf(kind);
    const plural = `${kind.toLowerCase()}s`;
    expect(crd.metadata.name).toBe(`${plural}.networking.fleet.azure.com`);
    expect(crd.spec.group).toBe('networking.fleet.azure.com');
    expect(crd.spec.scope).toBe('Namespaced');
    expect(crd.spec.names).toEqual({
      kind,
      listKind: `${kind}List`,
      plural,
      singular: kind.toLowerCase(),
      shortNames: expected.shortNames,
      categories: ['fleet-networking'],
    });
    expect(crd.spec.versions.map(({ name, served, storage }) => ({ name, served, storage }))).toEqual(expected.versions);
    for (const version of crd.spec.versions as unknown as Record<string, unknown>[]) {
      expect(version.subresources).toEqual({ status: {} });
      expect(version.additionalPrinterColumns).toEqual(expected.printerColumns);
      const schema = root(crd, String(version.name));
      expect(schema['x-kubernetes-validations']).toEqual(expected.validations);
      expect(schema.properties?.spec === undefined).toBe(expected.spec === undefined);
      for (const field of expected.status) expect(Object.keys(schema.properties?.status?.properties ?? {})).toContain(field);
      const conditions = schema.properties?.status?.properties?.conditions;
      if (conditions) expect(conditions).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['type'] });
    }
  });

  it('InternalServiceExport keeps upstream spec fields and their validation', async () => {
    const spec = root(await crdOf('InternalServiceExport'), 'v1alpha1').properties?.spec as Schema;
    expect(Object.keys(spec.properties ?? {})).toEqual(expect.arrayContaining([...UPSTREAM.InternalServiceExport.spec]));
    expect(spec.required).toEqual(['ports', 'serviceReference']);
    const ports = spec.properties?.ports as Schema;
    expect(ports['x-kubernetes-list-type']).toBe('atomic');
    expect(ports.items?.required).toEqual(['port']);
    expect(ports.items?.properties?.port).toMatchObject({ type: 'integer', format: 'int32', minimum: 1, maximum: 65535 });
    expect(ports.items?.properties?.protocol).toMatchObject({ enum: ['TCP', 'UDP', 'SCTP'], default: 'TCP' });
    const reference = spec.properties?.serviceReference as Schema;
    expect(reference['x-kubernetes-map-type']).toBe('atomic');
    expect([...(reference.required ?? [])].sort()).toEqual([
      'clusterId',
      'generation',
      'kind',
      'name',
      'namespace',
      'namespacedName',
      'resourceVersion',
      'uid',
    ]);
    // Upstream bounds the weight in the member agent (annotation parsing), not in the schema.
    expect(spec.properties?.weight).toEqual({ description: expect.any(String), type: 'integer', format: 'int64' });
  });

  it('ServiceImport keeps upstream status validation', async () => {
    const status = root(await crdOf('ServiceImport'), 'v1alpha1').properties?.status?.properties ?? {};
    expect(status.ips).toMatchObject({ type: 'array', maxItems: 1 });
    expect(status.type?.enum).toEqual(['ClusterSetIP', 'Headless']);
    expect(status.clusters).toMatchObject({ 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['cluster'] });
    expect(status.ports).toMatchObject({ 'x-kubernetes-list-type': 'atomic' });
  });

  it('adds only optional InternalServiceExport fields, each marked "Extension." and so documented by the generated table', async () => {
    const found = await extensions();
    expect(found.map((e) => e.path).sort()).toEqual([
      'spec.azureDataStale',
      'spec.azureObservedTime',
      'spec.internalLoadBalancerIP',
      'spec.privateEndpointConnections',
      'spec.privateLinkService',
      'spec.publicAddress',
      'status.frontDoors',
      'status.privateLinkRequests',
    ]);
    for (const { path: fieldPath, schema } of found) expect(schema.description, fieldPath).toMatch(/^Extension\. /);
    // The docs' table lists exactly the marked fields, each with its sub-fields.
    expect(crdExtensionFields(await crdOf('InternalServiceExport')).map((e) => e.path)).toEqual(found.map((e) => e.path));
    const table = await renderCrdExtensionTable();
    expect(table).toContain('| `spec.privateLinkService.{resourceID,location,alias}` | member agent | ');
    expect(table).toContain('| `status.privateLinkRequests[]{');
    // Optional: nothing upstream writes becomes invalid because it lacks an extension field.
    const spec = root(await crdOf('InternalServiceExport'), 'v1alpha1').properties?.spec;
    expect(spec?.required?.some((r) => found.some((e) => e.path === `spec.${r}`))).toBe(false);
  });
});
