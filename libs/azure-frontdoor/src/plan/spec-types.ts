import type { PrivateLinkConnectionState, RedirectStatusCode, SourceRef } from '@fleet-gateway/model';
import type { AfdRef } from './afd-refs.js';

/** The Gateway API objects a desired AFD resource comes from. */
export type Provenance = readonly SourceRef[];

type RefOf<K extends AfdRef['kind']> = Extract<AfdRef, { kind: K }>;

export type AfdSku = 'Standard_AzureFrontDoor' | 'Premium_AzureFrontDoor';
export type EnabledState = 'Enabled' | 'Disabled';
export type ForwardingProtocol = 'HttpOnly' | 'HttpsOnly';
export type EndpointProtocol = 'Http' | 'Https';

export interface ProfileSpec {
  readonly ref: RefOf<'profile'>;
  readonly sku: AfdSku;
  readonly tags: Readonly<Record<string, string>>;
  readonly originResponseTimeoutSeconds: number;
  readonly provenance: Provenance;
}

export interface EndpointSpec {
  readonly ref: RefOf<'endpoint'>;
  readonly tags: Readonly<Record<string, string>>;
  readonly provenance: Provenance;
}

/**
 * A Gateway hostname served on AFD: a custom domain with an AFD-managed certificate. AFD validates it once the
 * operator creates the `_dnsauth.<host>` TXT record (the domain's validation token) and points the host at the endpoint.
 */
export interface CustomDomainSpec {
  readonly ref: RefOf<'customDomain'>;
  readonly hostName: string;
  readonly minimumTlsVersion: 'TLS12';
  readonly provenance: Provenance;
}

export interface HealthProbeSpec {
  readonly probePath: string;
  readonly probeProtocol: 'Http' | 'Https';
  readonly probeRequestType: 'HEAD' | 'GET';
  readonly probeIntervalInSeconds: number;
}

export interface OriginGroupSpec {
  readonly ref: RefOf<'originGroup'>;
  /** Absent only for the endpoint's sink group (`sink.ts`), which has a single origin and nothing to probe. */
  readonly healthProbe?: HealthProbeSpec;
  /** AFD's latency band: origins this much slower than the fastest still share traffic by weight. */
  readonly additionalLatencyInMilliseconds: number;
  /** `namespace/name:port` of each backend whose clusters are origins of this group. */
  readonly backends: readonly string[];
  readonly provenance: Provenance;
}

export interface PrivateLinkSpec {
  readonly privateLinkId: string;
  readonly location: string;
  readonly requestMessage: string;
  /** What the member reports about the connection (the source of Private Link readiness). */
  readonly memberState: PrivateLinkConnectionState;
}

/**
 * One origin of a group. `keep` origins (member data unknown, or a Private Link request message not issued yet) keep
 * whatever is programmed: never created, changed or deleted because of missing information.
 */
export type OriginSpec =
  | {
      readonly ref: RefOf<'origin'>;
      readonly keep?: undefined;
      readonly backend: string;
      readonly cluster: string;
      readonly hostName: string;
      readonly originHostHeader?: string;
      readonly httpPort: number;
      readonly httpsPort: number;
      readonly priority: number;
      /** Absent for disabled origins: their weight is left as it is. */
      readonly weight?: number;
      readonly enabledState: EnabledState;
      readonly privateLink?: PrivateLinkSpec;
      readonly provenance: Provenance;
    }
  | {
      readonly ref: RefOf<'origin'>;
      readonly keep: string;
      readonly backend: string;
      readonly cluster: string;
      readonly provenance: Provenance;
    };

export type ProgrammableOriginSpec = Extract<OriginSpec, { keep?: undefined }>;

export interface RouteSpec {
  readonly ref: RefOf<'route'>;
  /** Custom domain names the route serves; none: the endpoint's default domain (`linkToDefaultDomain`). */
  readonly customDomains: readonly string[];
  readonly originGroup: string;
  readonly patterns: readonly string[];
  readonly supportedProtocols: readonly EndpointProtocol[];
  readonly forwardingProtocol: ForwardingProtocol;
  /** Takes the place of the part of the path the route's `/p/*` pattern fixes (path-rewrite.ts); none: the path as it is. */
  readonly originPath?: string;
  readonly ruleSets: readonly string[];
  /** The rule has no origin left: the route points at the endpoint's sink group, so requests get AFD's error. */
  readonly withdrawn: boolean;
  readonly provenance: Provenance;
}

export interface RuleSetSpec {
  readonly ref: RefOf<'ruleSet'>;
  readonly provenance: Provenance;
}

export type RuleCondition =
  | { readonly type: 'method'; readonly method: string }
  | { readonly type: 'header'; readonly name: string; readonly value: string }
  | { readonly type: 'query'; readonly name: string; readonly value: string }
  /** A request header against several values (ORed), or present with any value (`Any`, no values). */
  | { readonly type: 'headerMatch'; readonly name: string; readonly operator: 'Any' | 'Equal' | 'RegEx'; readonly values: readonly string[] };

export type HeaderActionKind = 'Overwrite' | 'Append' | 'Delete';

export type RuleAction =
  | { readonly type: 'originGroupOverride'; readonly originGroup: string; readonly forwardingProtocol: ForwardingProtocol }
  | { readonly type: 'requestHeader' | 'responseHeader'; readonly action: HeaderActionKind; readonly name: string; readonly value?: string }
  | {
      readonly type: 'redirect';
      readonly statusCode: RedirectStatusCode;
      readonly scheme?: 'http' | 'https';
      readonly hostname?: string;
      readonly path?: string;
    }
  | { readonly type: 'rewrite'; readonly sourcePattern: string; readonly destination: string; readonly preserveUnmatchedPath: boolean };

export interface RuleSpec {
  readonly ref: RefOf<'rule'>;
  readonly order: number;
  readonly conditions: readonly RuleCondition[];
  readonly actions: readonly RuleAction[];
  readonly matchProcessingBehavior: 'Continue' | 'Stop';
  readonly provenance: Provenance;
}

export interface SecurityPolicySpec {
  readonly ref: RefOf<'securityPolicy'>;
  readonly wafPolicyId: string;
  /** Endpoint names whose default domain the policy protects. */
  readonly endpoints: readonly string[];
  /** Custom domain names the policy protects: every one of the Gateway. */
  readonly customDomains: readonly string[];
  readonly provenance: Provenance;
}

/**
 * A (pattern, protocol) on one domain (the endpoint's default domain or a custom domain) whose routing cannot be planned because a rule that
 * decides it is in error (its problem is in the plan's problems). Whatever route AFD has for it now stays exactly
 * as it is, with its origin group, origins, rule sets and rules (last known good), until the rule is fixed or deleted.
 */
export interface HeldPattern {
  /** The custom domain name; absent: the endpoint's default domain. */
  readonly customDomain?: string;
  readonly pattern: string;
  readonly protocol: EndpointProtocol;
  /** Why, naming the rule and its problem. */
  readonly cause: string;
  readonly provenance: Provenance;
}

/** The desired AFD graph of one Gateway, every list in a deterministic order. */
export interface FrontDoorGraph {
  readonly profile: ProfileSpec;
  readonly endpoint: EndpointSpec;
  readonly customDomains: readonly CustomDomainSpec[];
  readonly originGroups: readonly OriginGroupSpec[];
  readonly origins: readonly OriginSpec[];
  readonly ruleSets: readonly RuleSetSpec[];
  readonly rules: readonly RuleSpec[];
  readonly routes: readonly RouteSpec[];
  readonly securityPolicy?: SecurityPolicySpec;
  /** Routing the plan leaves as AFD has it (rules in error): never planned, never deleted. */
  readonly held: readonly HeldPattern[];
}

export type AnySpec = ProfileSpec | EndpointSpec | CustomDomainSpec | OriginGroupSpec | OriginSpec | RouteSpec | RuleSetSpec | RuleSpec | SecurityPolicySpec;
