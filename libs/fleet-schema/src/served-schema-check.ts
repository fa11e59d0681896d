import { schemaDeclaresField, type CheckResult, type SchemaNode } from '@fleet-gateway/controller';
import { EXTENDED_CRDS_FIX, EXTENDED_CRDS_NEEDED, missingExtensionFields } from './fleet-crd-check.js';

/**
 * The hub's OpenAPI v3 document of the group version the extension fields live in. A member's hub identity may not
 * read the cluster-scoped CRD, but every authenticated identity may read /openapi/* (the system:discovery role), and
 * the API server publishes there exactly the schema it prunes with.
 */
export const FLEET_OPENAPI_PATH = '/openapi/v3/apis/networking.fleet.azure.com/v1alpha1';

const GVK = { group: 'networking.fleet.azure.com', version: 'v1alpha1', kind: 'InternalServiceExport' } as const;

/** What the check needs of an OpenAPI v3 document. */
export interface OpenApiDocument {
  readonly components?: {
    readonly schemas?: Readonly<
      Record<string, SchemaNode & { readonly 'x-kubernetes-group-version-kind'?: readonly { group: string; version: string; kind: string }[] }>
    >;
  };
}

/**
 * Whether the hub serves the InternalServiceExport extension fields, judged from its published OpenAPI schema
 * (`undefined`: the group version is not published, so the Fleet CRDs are not installed). One line: what the hub
 * serves, what is needed, how to fix it.
 */
export function checkServedSchema(document: OpenApiDocument | undefined): CheckResult {
  const schema = Object.values(document?.components?.schemas ?? {}).find((s) =>
    s['x-kubernetes-group-version-kind']?.some((g) => g.group === GVK.group && g.version === GVK.version && g.kind === GVK.kind),
  );
  if (!schema) {
    return {
      ok: false,
      message: `the hub serves no ${GVK.kind} of ${GVK.group}/${GVK.version} (${FLEET_OPENAPI_PATH}); ${EXTENDED_CRDS_NEEDED}; ${EXTENDED_CRDS_FIX}`,
    };
  }
  const missing = missingExtensionFields((path) => schemaDeclaresField(schema, path));
  if (missing.length === 0) return { ok: true };
  return {
    ok: false,
    message: `the hub's ${GVK.kind} (${GVK.group}/${GVK.version}) does not serve ${missing.join(', ')} (upstream fleet-networking's schema): the hub would drop what this member publishes; ${EXTENDED_CRDS_NEEDED}; ${EXTENDED_CRDS_FIX} on the hub`,
  };
}
