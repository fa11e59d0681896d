import type { DeletionPolicy, MinimumTlsVersion, OriginConnectivity, ProbeProtocol, ProbeRequestType, Sku, WafPolicyId } from '@fleet-gateway/annotations';

/** Where a model node came from: the object, and the part of it (listener name, `rule/2`, ...). */
export interface SourceRef {
  readonly kind: 'Gateway' | 'ListenerSet' | 'HTTPRoute' | 'ServiceImport' | 'InternalServiceExport';
  readonly namespace: string;
  readonly name: string;
  readonly section?: string;
}

export interface GatewayIdentity {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  readonly generation: number;
}

export interface GatewayModelConfig {
  readonly sku: Sku;
  readonly wafPolicy?: WafPolicyId;
  readonly originResponseTimeoutSeconds: number;
  readonly deletionPolicy: DeletionPolicy;
}

/** `*` stands for "any host": a listener and route without hostnames, served on the endpoint's own hostname. */
export const ANY_HOSTNAME = '*';

export type ListenerProtocol = 'HTTP' | 'HTTPS';

export interface ModelListener {
  readonly name: string;
  readonly protocol: ListenerProtocol;
  readonly port: number;
  readonly hostname: string;
  /** HTTPS only: the certificate comes from AFD. */
  readonly tls?: { readonly certificate: 'managed'; readonly minimumTlsVersion: MinimumTlsVersion };
  readonly source: SourceRef;
}

export interface PathMatch {
  readonly type: 'Exact' | 'PathPrefix';
  readonly value: string;
}

export interface NameValue {
  readonly name: string;
  readonly value: string;
}

/** One HTTPRouteMatch; header names are lowercase, duplicates removed (the first entry wins, as the spec says). */
export interface ModelMatch {
  readonly path: PathMatch;
  readonly method?: string;
  readonly headers: readonly NameValue[];
  readonly queryParams: readonly NameValue[];
}

export interface HeaderEdits {
  readonly set: readonly NameValue[];
  readonly add: readonly NameValue[];
  readonly remove: readonly string[];
}

/** AFD's UrlRedirect redirect types: Moved 301, Found 302, TemporaryRedirect 307, PermanentRedirect 308 (cdn.json). */
export type RedirectStatusCode = 301 | 302 | 307 | 308;

/**
 * An HTTPRoute CORS filter as AFD's rules engine answers it: response headers set by rules conditioned on the request's
 * `Origin` (the rules engine sets `Access-Control-Allow-Origin` itself, as Microsoft's Front Door CORS page advises for
 * several origins). AFD header actions take literal values only, so an origin given by a wildcard is answered with `*`.
 */
export interface CorsPolicy {
  /** Origins echoed in `Access-Control-Allow-Origin`, lower-cased, default ports removed. */
  readonly exactOrigins: readonly string[];
  /** Anchored regular expressions of `https://*.example.com`-style origins, answered with `*`. */
  readonly wildcardOrigins: readonly string[];
  /** `allowOrigins: ["*"]`: any request with an `Origin` is answered with `*`. */
  readonly anyOrigin: boolean;
  readonly allowCredentials: boolean;
  /** Header values; absent when the filter leaves the header out. */
  readonly allowMethods?: string;
  readonly allowHeaders?: string;
  readonly exposeHeaders?: string;
  readonly maxAge: number;
}

export type ModelFilter =
  | ({ readonly type: 'RequestHeaderModifier' } & HeaderEdits)
  | ({ readonly type: 'ResponseHeaderModifier' } & HeaderEdits)
  | {
      readonly type: 'RequestRedirect';
      readonly scheme?: 'http' | 'https';
      readonly hostname?: string;
      readonly path?: string;
      readonly statusCode: RedirectStatusCode;
    }
  | ({ readonly type: 'CORS' } & CorsPolicy)
  | {
      readonly type: 'URLRewrite';
      readonly path: { readonly type: 'ReplaceFullPath' | 'ReplacePrefixMatch'; readonly value: string };
    };

export interface RuleBackend {
  /** `namespace/name:port` of a backend in `GlobalGateway.backends`. */
  readonly backend: string;
  /** Gateway API backendRef weight, 0..1,000,000. */
  readonly weight: number;
}

/**
 * One origin of a rule's traffic: AFD weight 1..1000 for enabled origins; none for disabled ones (route weight 0)
 * and for unknown ones, whose last programmed state the provider keeps.
 */
export interface SplitEntry {
  readonly backend: string;
  readonly cluster: string;
  readonly state: 'enabled' | 'disabled' | 'unknown';
  readonly weight?: number;
}

export type WithdrawalReason = 'NoBackends' | 'NoValidBackends' | 'AllBackendWeightsZero';

/**
 * How one distinct weighted backend set spreads over origins; rules with proportional backend weights share it
 * (the provider's origin group). Backend weights are reduced by their greatest common divisor.
 */
export interface TrafficSplit {
  /** `namespace/name:port=weight,...` in backend order, weights reduced. */
  readonly key: string;
  readonly backends: readonly RuleBackend[];
  readonly origins: readonly SplitEntry[];
}

export interface ModelRule {
  readonly index: number;
  readonly matches: readonly ModelMatch[];
  readonly filters: readonly ModelFilter[];
  readonly backends: readonly RuleBackend[];
  /** Key of the rule's entry in `GlobalGateway.splits`; absent for redirects and rules without a valid backend. */
  readonly split?: string;
  /** Set when the rule must answer with an error rather than fall through to a less specific rule. */
  readonly withdrawn?: WithdrawalReason;
  /**
   * Set when a configuration error (a backend's invalid annotations) leaves the rule unplannable: the provider keeps
   * whatever it last programmed for it, and programs nothing for a rule it never programmed. Says why.
   */
  readonly held?: string;
  readonly source: SourceRef;
}

export interface ModelRoute {
  readonly namespace: string;
  readonly name: string;
  readonly creationTimestamp?: string;
  readonly listeners: readonly string[];
  readonly hostnames: readonly string[];
  readonly rules: readonly ModelRule[];
  readonly source: SourceRef;
}

export interface ProbeSettings {
  readonly path: string;
  readonly protocol: ProbeProtocol;
  readonly requestType: ProbeRequestType;
  readonly intervalSeconds: number;
}

export type PrivateLinkConnectionState = 'NotRequested' | 'AwaitingConnection' | 'Pending' | 'Approved' | 'Rejected' | 'Disconnected';

export interface PrivateLinkOrigin {
  readonly resourceId: string;
  readonly location: string;
  /** The request message the hub issued for this Gateway, once issued. */
  readonly requestMessage?: string;
  readonly connectionState: PrivateLinkConnectionState;
}

export type ResolvedConnectivity = Exclude<OriginConnectivity, 'auto'> | 'unknown';

export interface ModelOrigin {
  readonly cluster: string;
  readonly state: 'known' | 'unknown';
  /** Why the member data is unknown (missing, stale, not yet reported). */
  readonly unknownReason?: string;
  /** ServiceExport weight 1..1000 (known origins). */
  readonly exportWeight?: number;
  /** The backend's connectivity, repeated here so that each origin reads on its own. */
  readonly connectivity: ResolvedConnectivity;
  readonly address?: string;
  readonly privateLink?: PrivateLinkOrigin;
  readonly source: SourceRef;
}

/** The Kubernetes standard application protocols AFD can forward to an origin with. */
export type BackendAppProtocol = 'http' | 'https';

export interface ModelBackend {
  /** `namespace/name:port`. */
  readonly key: string;
  readonly namespace: string;
  readonly name: string;
  readonly port: number;
  /** The port's Kubernetes `appProtocol` (ServiceImport `status.ports`), when set: the protocol AFD forwards with. */
  readonly appProtocol?: BackendAppProtocol;
  readonly connectivity: ResolvedConnectivity;
  readonly probe: ProbeSettings;
  readonly latencySensitivityMilliseconds: number;
  readonly originHostHeader?: string;
  readonly origins: readonly ModelOrigin[];
  readonly source: SourceRef;
}

/** A precise path key: `Exact /a` is the path itself, `Subtree /a` is every path strictly below it (`/a/...`). */
export interface PathKey {
  readonly kind: 'Exact' | 'Subtree';
  readonly value: string;
}

/** One match able to take requests of a path key, with the conditions the request must also meet. */
export interface RoutingCandidate {
  readonly route: string;
  readonly rule: number;
  readonly match: number;
  readonly method?: string;
  readonly headers: readonly NameValue[];
  readonly queryParams: readonly NameValue[];
}

export interface PathRouting {
  readonly path: PathKey;
  /** In Gateway API precedence order; the first whose conditions hold takes the request. */
  readonly candidates: readonly RoutingCandidate[];
}

/** Every request to one hostname over one protocol, with nothing ambiguous left. */
export interface HostRouting {
  readonly protocol: ListenerProtocol;
  readonly hostname: string;
  readonly listener: string;
  readonly paths: readonly PathRouting[];
}

export interface GlobalGateway {
  readonly gateway: GatewayIdentity;
  readonly config: GatewayModelConfig;
  readonly listeners: readonly ModelListener[];
  readonly routes: readonly ModelRoute[];
  readonly backends: readonly ModelBackend[];
  readonly splits: readonly TrafficSplit[];
  readonly routing: readonly HostRouting[];
  readonly source: SourceRef;
}
