import { defineKey, type KindContract, type SpecTable } from './annotation-spec.js';
import {
  KnownAnnotatedKind,
  KnownCertificateSource,
  KnownDeletionPolicy,
  KnownMinimumTlsVersion,
  KnownOriginConnectivity,
  KnownProbeProtocol,
  KnownProbeRequestType,
  KnownSku,
} from './known-values.js';
import { dnsSubdomain, integerInRange, oneOf, requestPath, reserved } from './value-parser.js';
import { wafPolicyId } from './waf-policy-id.js';

/** Every key that starts with this prefix belongs to this contract; anything unknown under it is an error. */
export const RESERVED_PREFIX = 'networking.fleet.azure.com/afd-';

const gatewayKeys = {
  sku: defineKey({
    key: `${RESERVED_PREFIX}sku`,
    summary: 'Front Door tier of the profile. Private Link origins need Premium.',
    parser: oneOf([KnownSku.Standard, KnownSku.Premium]),
    defaultValue: undefined,
    defaultText: "the controller's default SKU (a controller setting)",
    example: KnownSku.Premium,
  }),
  wafPolicy: defineKey({
    key: `${RESERVED_PREFIX}waf-policy-id`,
    summary: 'Existing Front Door WAF policy to associate (never created, changed or deleted).',
    parser: wafPolicyId(),
    defaultValue: undefined,
    defaultText: 'none (no WAF association)',
    example:
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/waf-rg/providers/' +
      'Microsoft.Network/frontdoorWebApplicationFirewallPolicies/edgePolicy',
  }),
  originResponseTimeoutSeconds: defineKey({
    key: `${RESERVED_PREFIX}origin-response-timeout-seconds`,
    summary: "Profile-wide send/receive timeout towards origins (AFD's originResponseTimeoutSeconds: 16..240).",
    parser: integerInRange(16, 240, 'seconds'),
    defaultValue: 60,
    defaultText: '60 (AFD default)',
    example: '120',
  }),
  deletionPolicy: defineKey({
    key: `${RESERVED_PREFIX}deletion-policy`,
    summary:
      'What Gateway deletion does to Azure: Delete removes the profile; Orphan leaves it and only removes the ' +
      "finalizer. Honoured even when the Gateway's other annotations are invalid.",
    parser: oneOf([KnownDeletionPolicy.Delete, KnownDeletionPolicy.Orphan]),
    defaultValue: KnownDeletionPolicy.Delete,
    defaultText: KnownDeletionPolicy.Delete,
    example: KnownDeletionPolicy.Orphan,
  }),
} satisfies SpecTable;

export const gatewayContract: KindContract<typeof gatewayKeys> = {
  kind: KnownAnnotatedKind.Gateway,
  placement: 'on a Gateway (metadata.annotations)',
  condition: 'Gateway Accepted=False',
  reason: 'Invalid',
  keys: gatewayKeys,
  reserved: [
    {
      key: `${RESERVED_PREFIX}resource-group`,
      summary: 'Reserved: the resource group is a controller setting, so any value is rejected.',
      parser: reserved('the resource group is a controller setting'),
      defaultValue: undefined,
      defaultText: 'n/a',
      example: '(none)',
    },
  ],
};

const listenerTlsKeys = {
  certificate: defineKey({
    key: `${RESERVED_PREFIX}certificate`,
    summary: 'Certificate source of an HTTPS listener: "managed" asks for an AFD-managed certificate.',
    parser: oneOf([KnownCertificateSource.Managed]),
    defaultValue: undefined,
    defaultText: 'none: an HTTPS listener without it is not programmed',
    example: KnownCertificateSource.Managed,
  }),
  minimumTlsVersion: defineKey({
    key: `${RESERVED_PREFIX}minimum-tls-version`,
    summary: "Lowest TLS version the listener's domain accepts (AFD's minimumTlsVersion). Front Door has refused TLS 1.0/1.1 minimums since March 2025.",
    parser: oneOf([KnownMinimumTlsVersion.Tls12]),
    defaultValue: KnownMinimumTlsVersion.Tls12,
    defaultText: KnownMinimumTlsVersion.Tls12,
    example: KnownMinimumTlsVersion.Tls12,
  }),
} satisfies SpecTable;

export const listenerTlsContract: KindContract<typeof listenerTlsKeys> = {
  kind: KnownAnnotatedKind.Listener,
  placement: "in a Gateway listener's tls.options",
  condition: 'Listener Accepted=False',
  reason: 'Invalid',
  keys: listenerTlsKeys,
  reserved: [],
};

const serviceImportKeys = {
  connectivity: defineKey({
    key: `${RESERVED_PREFIX}origin-connectivity`,
    summary:
      'How AFD reaches the clusters: auto = private-link when every cluster reports a Private Link Service, ' +
      'public when every cluster has a public address; private-link never downgrades.',
    parser: oneOf([KnownOriginConnectivity.Auto, KnownOriginConnectivity.Public, KnownOriginConnectivity.PrivateLink]),
    defaultValue: KnownOriginConnectivity.Auto,
    defaultText: KnownOriginConnectivity.Auto,
    example: KnownOriginConnectivity.PrivateLink,
  }),
  healthProbePath: defineKey({
    key: `${RESERVED_PREFIX}health-probe-path`,
    summary: 'Path of the origin group health probe (only HTTP 200 counts as healthy).',
    parser: requestPath(),
    defaultValue: '/',
    defaultText: '/',
    example: '/healthz',
  }),
  healthProbeProtocol: defineKey({
    key: `${RESERVED_PREFIX}health-probe-protocol`,
    summary: 'Protocol of the health probe; also the forwarding protocol to origins when the backend port has no appProtocol.',
    parser: oneOf([KnownProbeProtocol.Http, KnownProbeProtocol.Https]),
    defaultValue: KnownProbeProtocol.Http,
    defaultText: KnownProbeProtocol.Http,
    example: KnownProbeProtocol.Https,
  }),
  healthProbeRequestType: defineKey({
    key: `${RESERVED_PREFIX}health-probe-request-type`,
    summary: 'HTTP method of the health probe; HEAD is the cheaper one.',
    parser: oneOf([KnownProbeRequestType.Head, KnownProbeRequestType.Get]),
    defaultValue: KnownProbeRequestType.Head,
    defaultText: KnownProbeRequestType.Head,
    example: KnownProbeRequestType.Get,
  }),
  healthProbeIntervalSeconds: defineKey({
    key: `${RESERVED_PREFIX}health-probe-interval-seconds`,
    summary: "Seconds between probes from each AFD environment (ARM's probeIntervalInSeconds: 1..255).",
    parser: integerInRange(1, 255, 'seconds'),
    defaultValue: 240,
    defaultText: '240 (the default the ARM schema documents)',
    example: '30',
  }),
  latencySensitivityMilliseconds: defineKey({
    key: `${RESERVED_PREFIX}latency-sensitivity-milliseconds`,
    summary:
      "AFD's additionalLatencyInMilliseconds: origins this much slower than the fastest still share traffic. " +
      'The widest band (1000) lets weights govern; 0 sends everything to the fastest origin.',
    parser: integerInRange(0, 1000, 'milliseconds'),
    defaultValue: 1000,
    defaultText: '1000 (the widest band AFD accepts, so weights govern)',
    example: '50',
  }),
  originHostHeader: defineKey({
    key: `${RESERVED_PREFIX}origin-host-header`,
    summary: 'Host header AFD sends to every origin of this backend.',
    parser: dnsSubdomain(),
    defaultValue: undefined,
    defaultText: "none: AFD forwards the request's Host",
    example: 'store.internal.example.com',
  }),
} satisfies SpecTable;

export const serviceImportContract: KindContract<typeof serviceImportKeys> = {
  kind: KnownAnnotatedKind.ServiceImport,
  placement: 'on a ServiceImport (metadata.annotations)',
  condition: 'HTTPRoute ResolvedRefs=False (each route that uses it)',
  reason: 'InvalidBackendAnnotations',
  keys: serviceImportKeys,
  reserved: [],
};

/** HTTPRoutes take no keys of their own; the entry exists so that misplaced keys are caught there too. */
export const httpRouteContract: KindContract<Record<string, never>> = {
  kind: KnownAnnotatedKind.HTTPRoute,
  placement: 'on an HTTPRoute (metadata.annotations)',
  condition: 'HTTPRoute Accepted=False',
  reason: 'UnsupportedValue',
  keys: {},
  reserved: [],
};

export const annotationContracts: readonly KindContract<SpecTable>[] = [gatewayContract, listenerTlsContract, serviceImportContract, httpRouteContract];
