import { crdServesField, type CheckResult, type CustomResourceDefinition } from '@fleet-gateway/controller';

export const INTERNAL_SERVICE_EXPORT_CRD = 'internalserviceexports.networking.fleet.azure.com';

/** The label upstream fleet-networking's `net-crd-installer` puts on the CRDs it installs (and re-installs). */
export const UPSTREAM_CRD_INSTALLER_LABEL = 'crd-installer.networking.azure.fleet.com/managed';

/** The fields our InternalServiceExport CRD adds to upstream's ("Extension." in charts/fleet-networking-crds). */
export const EXTENSION_FIELDS: readonly (readonly string[])[] = [
  ['spec', 'internalLoadBalancerIP'],
  ['spec', 'publicAddress'],
  ['spec', 'privateLinkService'],
  ['spec', 'privateEndpointConnections'],
  ['spec', 'azureObservedTime'],
  ['spec', 'azureDataStale'],
  ['status', 'privateLinkRequests'],
  ['status', 'frontDoors'],
];

export const EXTENDED_CRDS_NEEDED = 'the hub needs the extended Fleet CRDs of charts/fleet-networking-crds';
export const EXTENDED_CRDS_FIX =
  'fix: install or upgrade the hub chart, which carries them (helm upgrade --install --take-ownership --force-conflicts hub-gateway charts/hub-gateway -n fleet-system)';

/** The extension fields (dotted) a schema lacks, given how to ask it whether it declares one. */
export function missingExtensionFields(declares: (path: readonly string[]) => boolean): string[] {
  return EXTENSION_FIELDS.filter((path) => !declares(path)).map((path) => path.join('.'));
}

/**
 * Whether the installed InternalServiceExport CRD serves the extension fields the hub and member agents exchange.
 * Without them the API server prunes what the member publishes and the hub writes, so the hub must not start on it.
 * The message is one line: what is installed, what is needed, how to fix it.
 */
export function checkFleetCrds(crd: CustomResourceDefinition | undefined): CheckResult {
  if (!crd) return { ok: false, message: `CRD ${INTERNAL_SERVICE_EXPORT_CRD} is not installed; ${EXTENDED_CRDS_NEEDED}; ${EXTENDED_CRDS_FIX}` };
  const missing = missingExtensionFields((path) => crdServesField(crd, 'v1alpha1', path));
  if (missing.length === 0) return { ok: true };
  const installer = crd.metadata.labels?.[UPSTREAM_CRD_INSTALLER_LABEL] === 'true';
  const installed = installer
    ? `CRD ${INTERNAL_SERVICE_EXPORT_CRD} is upstream fleet-networking's, installed by its net-crd-installer (label ${UPSTREAM_CRD_INSTALLER_LABEL}=true), without ${missing.join(', ')}`
    : `CRD ${INTERNAL_SERVICE_EXPORT_CRD} does not serve ${missing.join(', ')} (upstream fleet-networking's schema)`;
  const fix = installer ? `${EXTENDED_CRDS_FIX}, after turning off fleet-networking's net-crd-installer, which replaces it` : EXTENDED_CRDS_FIX;
  return { ok: false, message: `${installed}; ${EXTENDED_CRDS_NEEDED}; ${fix}` };
}
