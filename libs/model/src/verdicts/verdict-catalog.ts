/**
 * Every (object, condition type, status, reason) that resolve can produce, with the case that produces it. The README
 * table is rendered from this list, and the golden tests fail unless every row occurs in some golden output and
 * every condition in a golden output is a row here.
 */
export interface VerdictCase {
  /** `Listener` covers a ListenerSet's listeners too: they are judged as the Gateway's are. */
  readonly object: 'GatewayClass' | 'Gateway' | 'Listener' | 'ListenerSet' | 'HTTPRoute parent';
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason: string;
  /** True when Gateway API v1.2 defines the reason (for this or a sibling condition); false for our own. */
  readonly specReason: boolean;
  readonly when: string;
}

export const verdictCatalog: readonly VerdictCase[] = [
  {
    object: 'GatewayClass',
    type: 'Accepted',
    status: 'True',
    reason: 'Accepted',
    specReason: true,
    when: 'controllerName is networking.fleet.azure.com/afd and no parametersRef',
  },
  {
    object: 'GatewayClass',
    type: 'Accepted',
    status: 'False',
    reason: 'InvalidParameters',
    specReason: true,
    when: 'parametersRef is set (this controller takes no parameters)',
  },

  { object: 'Gateway', type: 'Accepted', status: 'True', reason: 'Accepted', specReason: true, when: 'valid class, annotations and listeners' },
  {
    object: 'Gateway',
    type: 'Accepted',
    status: 'True',
    reason: 'ListenersNotValid',
    specReason: true,
    when: 'some listeners are invalid or conflicted; the message names them',
  },
  { object: 'Gateway', type: 'Accepted', status: 'False', reason: 'ListenersNotValid', specReason: true, when: 'no listener is valid' },
  {
    object: 'Gateway',
    type: 'Accepted',
    status: 'False',
    reason: 'Invalid',
    specReason: true,
    when: "an annotation is invalid, unknown or misplaced (all are listed), spec.tls is set (AFD validates no client certificate and presents none to origins), or the model fails a check of the Gateway itself (a route's own structural error refuses that route only)",
  },
  {
    object: 'Gateway',
    type: 'Accepted',
    status: 'False',
    reason: 'UnsupportedAddress',
    specReason: true,
    when: 'spec.addresses is set (AFD assigns the endpoint hostname)',
  },
  {
    object: 'Gateway',
    type: 'Accepted',
    status: 'False',
    reason: 'InvalidParameters',
    specReason: true,
    when: 'spec.infrastructure is set, or the GatewayClass is not accepted',
  },
  {
    object: 'Gateway',
    type: 'Programmed',
    status: 'False',
    reason: 'Invalid',
    specReason: true,
    when: 'the Gateway is not accepted (otherwise Programmed comes from the provider)',
  },

  {
    object: 'Listener',
    type: 'Accepted',
    status: 'True',
    reason: 'Accepted',
    specReason: true,
    when: 'HTTP on 80 or HTTPS on 443, valid tls.options, no conflict',
  },
  {
    object: 'Listener',
    type: 'Accepted',
    status: 'False',
    reason: 'UnsupportedProtocol',
    specReason: true,
    when: 'protocol other than HTTP or HTTPS (every other problem of the listener is named in the same message)',
  },
  {
    object: 'Listener',
    type: 'Accepted',
    status: 'False',
    reason: 'PortUnavailable',
    specReason: true,
    when: 'HTTP not on 80 or HTTPS not on 443 (the only ports AFD serves)',
  },
  {
    object: 'Listener',
    type: 'Accepted',
    status: 'False',
    reason: 'Invalid',
    specReason: true,
    when: 'tls.options holds an invalid, unknown or misplaced afd- key',
  },
  {
    object: 'Listener',
    type: 'Accepted',
    status: 'False',
    reason: 'HostnameConflict',
    specReason: true,
    when: "another listener of the Gateway has the same protocol, port and hostname; or a ListenerSet's listener has those of an earlier listener (the Gateway's own, then older ListenerSets', then by namespace/name; only listeners valid otherwise hold a place); or another Gateway of this controller holds the hostname, or a wildcard over it or a first-level subdomain under it (AFD serves a custom domain from one profile only); the holder is the Gateway whose status already says it holds it, else the oldest, then namespace/name",
  },
  {
    object: 'Listener',
    type: 'Conflicted',
    status: 'True',
    reason: 'HostnameConflict',
    specReason: true,
    when: "as above; the message names the other listener and Gateway (for an earlier ListenerSet, only that one holds it: it may be another team's)",
  },
  { object: 'Listener', type: 'Conflicted', status: 'False', reason: 'NoConflicts', specReason: true, when: 'none of the above' },
  { object: 'Listener', type: 'ResolvedRefs', status: 'True', reason: 'ResolvedRefs', specReason: true, when: 'route kinds and certificate source are usable' },
  {
    object: 'Listener',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'InvalidRouteKinds',
    specReason: true,
    when: 'allowedRoutes.kinds names a kind other than gateway.networking.k8s.io HTTPRoute',
  },
  {
    object: 'Listener',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'InvalidCertificateRef',
    specReason: true,
    when: 'HTTPS with certificateRefs (unsupported), without the afd-certificate option, or with a managed certificate for a hostname over 64 characters; judged even when the listener is not accepted',
  },
  { object: 'Listener', type: 'Programmed', status: 'False', reason: 'HostnameConflict', specReason: true, when: 'the listener is conflicted (as above)' },
  {
    object: 'Listener',
    type: 'Programmed',
    status: 'False',
    reason: 'Invalid',
    specReason: true,
    when: 'the listener is not accepted, for another reason than a conflict, or its refs are not resolved',
  },

  {
    object: 'ListenerSet',
    type: 'Accepted',
    status: 'True',
    reason: 'Accepted',
    specReason: true,
    when: "its parentRef names the Gateway, the Gateway's allowedListeners admits its namespace, the Gateway is accepted and every listener is valid",
  },
  {
    object: 'ListenerSet',
    type: 'Accepted',
    status: 'True',
    reason: 'ListenersNotValid',
    specReason: true,
    when: 'some listeners are invalid or conflicted; the message names them',
  },
  { object: 'ListenerSet', type: 'Accepted', status: 'False', reason: 'ListenersNotValid', specReason: true, when: 'no listener is valid' },
  { object: 'ListenerSet', type: 'Programmed', status: 'False', reason: 'ListenersNotValid', specReason: true, when: 'as above' },
  {
    object: 'ListenerSet',
    type: 'Accepted',
    status: 'False',
    reason: 'NotAllowed',
    specReason: true,
    when: "the Gateway's spec.allowedListeners.namespaces does not admit its namespace (from: None, the default; Same; Selector)",
  },
  { object: 'ListenerSet', type: 'Programmed', status: 'False', reason: 'NotAllowed', specReason: true, when: 'as above' },
  { object: 'ListenerSet', type: 'Accepted', status: 'False', reason: 'ParentNotAccepted', specReason: true, when: 'the Gateway is not accepted' },
  { object: 'ListenerSet', type: 'Programmed', status: 'False', reason: 'ParentNotProgrammed', specReason: true, when: 'as above' },

  {
    object: 'HTTPRoute parent',
    type: 'Accepted',
    status: 'True',
    reason: 'Accepted',
    specReason: true,
    when: 'attached to at least one listener; shadowed matches, hostnames not served (a single label, a label over 63 characters, over the 64 characters of an AFD-managed certificate), and listeners that serve nothing for it (invalid, or listener isolation gives its hosts to another) are named in the message',
  },
  {
    object: 'HTTPRoute parent',
    type: 'Accepted',
    status: 'False',
    reason: 'NoMatchingParent',
    specReason: true,
    when: 'sectionName or port matches no listener',
  },
  {
    object: 'HTTPRoute parent',
    type: 'Accepted',
    status: 'False',
    reason: 'NotAllowedByListeners',
    specReason: true,
    when: "no matching listener's allowedRoutes admits the route's namespace and kind (a listener that takes no HTTPRoutes is named as invalid)",
  },
  {
    object: 'HTTPRoute parent',
    type: 'Accepted',
    status: 'False',
    reason: 'NoMatchingListenerHostname',
    specReason: true,
    when: "no route hostname intersects the allowed listeners' hostnames (listener isolation never refuses a route: it decides which listener serves a host)",
  },
  {
    object: 'HTTPRoute parent',
    type: 'Accepted',
    status: 'False',
    reason: 'UnsupportedValue',
    specReason: true,
    when: 'every rule uses something AFD cannot express, every hostname it would be served on is one AFD cannot take as a custom domain (a single label, a label over 63 characters, over the 64 characters of an AFD-managed certificate), the route carries afd- annotations, or the model refuses the route (a structural error of its own: the rest of the Gateway keeps its model); with an attachment problem, its reason comes first and the message names every problem; a held route (an invalid edit of a programmed route) reports any dropped rule or hostname AFD cannot take here, not as PartiallyInvalid, and its False conditions name "serving generation N"',
  },
  {
    object: 'HTTPRoute parent',
    type: 'PartiallyInvalid',
    status: 'True',
    reason: 'UnsupportedValue',
    specReason: true,
    when: 'some rules are dropped (including values over AFD\'s rules-engine limits: more than 10 method/header/query conditions in a match, a header match value over 256 characters, a header modifier value over 640), or a match is left out because an older route holds the same path but for case (named with the winner and where its requests go); the message starts with "Dropped Rule"',
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'True',
    reason: 'ResolvedRefs',
    specReason: true,
    when: 'every backendRef resolves; the message names unknown clusters (fail-static) and withdrawn rules, as the False cases below do',
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'InvalidKind',
    specReason: true,
    when: 'a backendRef is not a networking.fleet.azure.com ServiceImport; with other, valid backendRefs, the message says their share was redistributed to them, as for the cases below',
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'RefNotPermitted',
    specReason: true,
    when: 'a cross-namespace backendRef without a ReferenceGrant',
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'BackendNotFound',
    specReason: true,
    when: 'the ServiceImport does not exist, or the port is not among its ports',
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'UnsupportedProtocol',
    specReason: true,
    when: "the ServiceImport port's appProtocol is neither http nor https (kubernetes.io/h2c, kubernetes.io/ws, ...): AFD speaks HTTP/1.1, over TLS or not, to the origins of routes without gRPC (preview); the rule's other backends take its share",
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'InvalidBackendAnnotations',
    specReason: false,
    when: "the ServiceImport's afd- annotations are invalid: its rules keep serving the last programmed configuration (held)",
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'MixedOriginConnectivity',
    specReason: false,
    when: 'connectivity auto, and the clusters are neither all Private Link nor all public (both sides named)',
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'OriginConnectivityUnavailable',
    specReason: false,
    when: 'connectivity public or private-link, and some clusters lack it (never downgraded)',
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'PrivateLinkRequiresPremium',
    specReason: false,
    when: 'a backend resolves to Private Link on a Standard_AzureFrontDoor Gateway',
  },
  {
    object: 'HTTPRoute parent',
    type: 'ResolvedRefs',
    status: 'False',
    reason: 'NoOrigins',
    specReason: false,
    when: 'the ServiceImport has no cluster that can hold an origin (none exported, weight 0, or unexporting)',
  },
];

/** The README table of every case, rendered from the catalog above. */
export function renderVerdictTable(): string {
  const lines = ['| object | condition | status | reason | Gateway API reason? | when |', '| --- | --- | --- | --- | --- | --- |'];
  for (const c of verdictCatalog) {
    lines.push(`| ${c.object} | ${c.type} | ${c.status} | \`${c.reason}\` | ${c.specReason ? 'yes' : 'no (ours)'} | ${c.when.replace(/\|/g, '\\|')} |`);
  }
  return lines.join('\n');
}
