// resolve: the hub's objects -> the model of one Gateway and the conditions of every object
export { acceptedSpecKey, acceptedSpecsDue, acceptedSpecsOf, acceptedSpecValue, readAcceptedSpec } from './resolve/accepted-spec.js';
export { claimsOf, hostnameClaimKey } from './resolve/hostname-claims.js';
export type { HubInputs } from './resolve/hub-inputs.js';
export { HubInputsError, readHubInputs, writeHubInputs } from './resolve/hub-inputs.js';
export { listenerSetParent } from './resolve/listener-owner.js';
export { resolveGateway } from './resolve/resolve-gateway.js';
export type { ResolveResult } from './resolve/resolve-result.js';

// model: the provider-neutral GlobalGateway and what is computed on it alone
export { modelHash } from './model/content-hash.js';
export { MAX_CONDITIONS_PER_RULE } from './model/afd-value-limits.js';
export { escapeRegex } from './model/escape-regex.js';
export type {
  BackendAppProtocol,
  CorsPolicy,
  GatewayIdentity,
  GatewayModelConfig,
  GlobalGateway,
  HeaderEdits,
  HostRouting,
  ListenerProtocol,
  ModelBackend,
  ModelFilter,
  ModelListener,
  ModelMatch,
  ModelOrigin,
  ModelRoute,
  ModelRule,
  NameValue,
  PathKey,
  PathMatch,
  PathRouting,
  PrivateLinkConnectionState,
  PrivateLinkOrigin,
  ProbeSettings,
  RedirectStatusCode,
  ResolvedConnectivity,
  RoutingCandidate,
  RuleBackend,
  SourceRef,
  SplitEntry,
  TrafficSplit,
  WithdrawalReason,
} from './model/model-types.js';
export { ANY_HOSTNAME } from './model/model-types.js';
export { validateModel } from './model/model-validation.js';
export { CONTROLLER_NAME } from './model/names.js';
export { mostSpecificCovering } from './model/hostnames.js';
export { normalize } from './model/normalize.js';
export { apportionWeights, MAX_ORIGIN_WEIGHT } from './model/weights.js';

// verdicts: the conditions resolve produces, and the catalog of every case
export { gatewayClassVerdict } from './verdicts/gateway-verdict.js';
export { renderVerdictTable, verdictCatalog } from './verdicts/verdict-catalog.js';
export type {
  GatewayClassVerdict,
  GatewayVerdict,
  ListenerSetVerdict,
  ListenerVerdict,
  ParentRefAsWritten,
  RouteParentVerdict,
  RouteVerdict,
  VerdictCondition,
  Verdicts,
} from './verdicts/verdict-types.js';
export { withdrawalsNotMade } from './verdicts/withdrawn-notes.js';
