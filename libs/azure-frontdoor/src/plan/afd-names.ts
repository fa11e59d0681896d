import { createHash } from 'node:crypto';
import type { GatewayIdentity } from '@fleet-gateway/model';
import type { AfdKind } from './afd-refs.js';

/**
 * Name rules per AFD resource type. ARM's afdx.json states only the profile rule; the child rules are those the
 * AzureRM Terraform provider validates (internal/services/cdn/validate/front_door_*_name.go), which mirror what
 * the service accepts. We stay inside the strictest of them for each kind.
 */
export interface NameRule {
  readonly maxLength: number;
  readonly pattern: RegExp;
  readonly expected: string;
}

const HYPHENATED = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const ALPHANUMERIC = /^[a-z][a-z0-9]*$/;

function hyphenated(maxLength: number): NameRule {
  return { maxLength, pattern: HYPHENATED, expected: `1..${maxLength} of a-z, 0-9 and "-", starting and ending with a letter or digit` };
}

function alphanumeric(maxLength: number): NameRule {
  return { maxLength, pattern: ALPHANUMERIC, expected: `1..${maxLength} of a-z and 0-9, starting with a letter` };
}

export const NAME_RULES: Readonly<Record<AfdKind, NameRule>> = {
  // Profiles allow 260; 63 keeps resource ids and portal listings readable.
  profile: hyphenated(63),
  // Endpoint names become the first label of <name>-<hash>.z01.azurefd.net: at most 46.
  endpoint: hyphenated(46),
  customDomain: hyphenated(90),
  originGroup: hyphenated(90),
  origin: hyphenated(90),
  route: hyphenated(90),
  // Rule sets and rules: letters and digits only, starting with a letter (rule sets at most 60).
  ruleSet: alphanumeric(60),
  rule: alphanumeric(60),
  securityPolicy: hyphenated(90),
};

/** Why a name breaks its kind's rule, or undefined when it is valid. */
export function nameProblem(kind: AfdKind, name: string): string | undefined {
  const rule = NAME_RULES[kind];
  if (name.length === 0 || name.length > rule.maxLength || !rule.pattern.test(name)) {
    return `${kind} name "${name}" is invalid; expected ${rule.expected}`;
  }
  return undefined;
}

/** Hex digits of sha256(identity): 12 give 48 bits, so a collision among a profile's ~200 names has odds below 1e-10. */
export function identityHash(identity: string, digits = 12): string {
  return createHash('sha256').update(identity).digest('hex').slice(0, digits);
}

function readable(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** `<prefix>-<readable>-<hash>`, the readable part shortened to fit; the hash alone carries uniqueness. */
function hyphenatedName(kind: AfdKind, prefix: string, text: string, identity: string): string {
  const hash = identityHash(identity);
  const room = NAME_RULES[kind].maxLength - prefix.length - hash.length - 2;
  const middle = readable(text).slice(0, Math.max(0, room)).replace(/-+$/, '');
  return [prefix, middle, hash].filter((part) => part.length > 0).join('-');
}

function gatewayIdentity(gateway: GatewayIdentity): string {
  return `gateway/${gateway.namespace}/${gateway.name}/${gateway.uid}`;
}

export function profileName(gateway: GatewayIdentity): string {
  return hyphenatedName('profile', 'fgw', `${gateway.namespace}-${gateway.name}`, gatewayIdentity(gateway));
}

export function endpointName(gateway: GatewayIdentity): string {
  return hyphenatedName('endpoint', 'fgw', gateway.name, `endpoint/${gatewayIdentity(gateway)}`);
}

export function securityPolicyName(gateway: GatewayIdentity): string {
  return hyphenatedName('securityPolicy', 'waf', gateway.name, `waf/${gatewayIdentity(gateway)}`);
}

/** A custom domain: one per distinct hostname of the Gateway (a wildcard's `*` drops out of the readable part). */
export function customDomainName(hostname: string): string {
  return hyphenatedName('customDomain', 'cd', hostname, `custom-domain/${hostname.toLowerCase()}`);
}

/** An origin group: named by the backends it balances; `identity` adds a variant when one backend set needs two groups. */
export function originGroupName(readableText: string, identity: string): string {
  return hyphenatedName('originGroup', 'og', readableText, `origin-group/${identity}`);
}

/** An origin: unique within its group; the cluster name keeps it readable. */
export function originName(backendKey: string, cluster: string): string {
  return hyphenatedName('origin', 'o', cluster, `origin/${backendKey}/${cluster}`);
}

export function routeName(readableText: string, identity: string): string {
  return hyphenatedName('route', 'rt', readableText, `route/${identity}`);
}

export function ruleSetName(identity: string): string {
  return `rs${identityHash(`rule-set/${identity}`, 16)}`;
}

export function ruleName(identity: string): string {
  return `m${identityHash(`rule/${identity}`, 16)}`;
}

/** The endpoint's sink origin group (see `sink.ts`): one per endpoint, so that a withdrawn rule has a legal target. */
export function sinkOriginGroupName(endpoint: string): string {
  return hyphenatedName('originGroup', 'og', 'withdrawn', `sink/${endpoint}`);
}

export function sinkOriginName(endpoint: string): string {
  return hyphenatedName('origin', 'o', 'unreachable', `sink/${endpoint}`);
}
