import { fleetCrds, type CustomResourceDefinitionManifest } from './crds.js';

interface FieldSchema {
  description?: string;
  properties?: Record<string, FieldSchema>;
  items?: FieldSchema;
}

const EXTENSION = 'Extension. ';
/** Who writes each half of an InternalServiceExport: the member its spec, the hub its status. */
const WRITERS = { spec: 'member agent', status: 'hub agent' } as const;

/** The InternalServiceExport fields this project adds to fleet-networking's, found by the "Extension." their descriptions start with. */
export function crdExtensionFields(crd: CustomResourceDefinitionManifest): { path: string; schema: FieldSchema }[] {
  const root = crd.spec.versions.find((v) => v.storage)?.schema?.openAPIV3Schema as FieldSchema | undefined;
  return (['spec', 'status'] as const).flatMap((section) =>
    Object.entries(root?.properties?.[section]?.properties ?? {})
      .filter(([, field]) => field.description?.startsWith(EXTENSION))
      .map(([name, field]) => ({ path: `${section}.${name}`, schema: field })),
  );
}

/** One field with its sub-fields, as `spec.privateLinkService.{resourceID,location,alias}` or `status.frontDoors[]{…}`. */
function fieldName(path: string, schema: FieldSchema): string {
  const nested = Object.keys(schema.properties ?? schema.items?.properties ?? {});
  if (nested.length === 0) return path;
  return schema.items ? `${path}[]{${nested.join(',')}}` : `${path}.{${nested.join(',')}}`;
}

/** The docs' table of the InternalServiceExport extension fields: field, writer, meaning (the schema's description). */
export async function renderCrdExtensionTable(): Promise<string> {
  const crd = (await fleetCrds()).find((c) => c.spec.names.kind === 'InternalServiceExport');
  if (!crd) throw new Error('charts/fleet-networking-crds has no InternalServiceExport');
  const rows = crdExtensionFields(crd).map(({ path, schema }) => {
    const meaning = (schema.description ?? '').slice(EXTENSION.length).replace(/\s+/g, ' ').replaceAll('|', '\\|').trim();
    return `| \`${fieldName(path, schema)}\` | ${WRITERS[path.startsWith('spec.') ? 'spec' : 'status']} | ${meaning} |`;
  });
  return ['| field | written by | meaning |', '|---|---|---|', ...rows].join('\n');
}
