/**
 * Known values of the annotation contract, in the style of the Azure SDK's `Known*` enums: a const object for
 * code that wants names, and a union type for code that wants checking.
 */

export const KnownSku = {
  Standard: 'Standard_AzureFrontDoor',
  Premium: 'Premium_AzureFrontDoor',
} as const;
export type Sku = (typeof KnownSku)[keyof typeof KnownSku];

export const KnownDeletionPolicy = {
  Delete: 'Delete',
  Orphan: 'Orphan',
} as const;
export type DeletionPolicy = (typeof KnownDeletionPolicy)[keyof typeof KnownDeletionPolicy];

export const KnownOriginConnectivity = {
  Auto: 'auto',
  Public: 'public',
  PrivateLink: 'private-link',
} as const;
export type OriginConnectivity = (typeof KnownOriginConnectivity)[keyof typeof KnownOriginConnectivity];

export const KnownProbeProtocol = {
  Http: 'Http',
  Https: 'Https',
} as const;
export type ProbeProtocol = (typeof KnownProbeProtocol)[keyof typeof KnownProbeProtocol];

export const KnownProbeRequestType = {
  Head: 'HEAD',
  Get: 'GET',
} as const;
export type ProbeRequestType = (typeof KnownProbeRequestType)[keyof typeof KnownProbeRequestType];

export const KnownCertificateSource = {
  Managed: 'managed',
} as const;
export type CertificateSource = (typeof KnownCertificateSource)[keyof typeof KnownCertificateSource];

export const KnownMinimumTlsVersion = {
  Tls12: 'TLS12',
} as const;
export type MinimumTlsVersion = (typeof KnownMinimumTlsVersion)[keyof typeof KnownMinimumTlsVersion];

/** The object kinds whose keys the contract covers (a Listener's keys live in its `tls.options`). */
export const KnownAnnotatedKind = {
  Gateway: 'Gateway',
  Listener: 'Listener',
  ServiceImport: 'ServiceImport',
  HTTPRoute: 'HTTPRoute',
} as const;
export type AnnotatedKind = (typeof KnownAnnotatedKind)[keyof typeof KnownAnnotatedKind];

export function isSku(value: string): value is Sku {
  return Object.values<string>(KnownSku).includes(value);
}
