import { gatewayContract, isSku, type Sku } from '@fleet-gateway/annotations';
import type { Gateway, GatewayClass, HTTPRoute, InternalServiceExport, ListenerSet, ReferenceGrant, ServiceImport } from '@fleet-gateway/api-types';
import { parse, stringify } from 'yaml';

/** Labels of a namespace, for listeners that select route namespaces by label. */
export interface NamespaceLabels {
  readonly name: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** Controller-wide settings that shape resolution. */
export interface ControllerSettings {
  /** Used when a Gateway has no afd-sku annotation. */
  readonly defaultSku: Sku;
}

/**
 * Everything one reconcile of one Gateway reads, as the hub's informer caches hold it. It is also the golden-file
 * fixture format: plain objects that round-trip through YAML.
 */
export interface HubInputs {
  readonly controller: ControllerSettings;
  /** The class named by `gateway.spec.gatewayClassName`, when it exists. */
  readonly gatewayClass?: GatewayClass;
  readonly gateway: Gateway;
  /**
   * The hub's other Gateways whose GatewayClass has this controller's controllerName and whose listener hostnames can
   * contest this Gateway's (hostname-claims.ts), with their status: the listener status this controller wrote on them
   * says which hostnames they hold. AFD serves a custom domain from one profile only, so a listener hostname one of
   * them holds conflicts.
   */
  readonly otherGateways?: readonly Gateway[];
  /**
   * The ListenerSets naming one of `otherGateways`, with their status: a listener that status says holds its hostname
   * claims it for that Gateway's profile.
   */
  readonly otherListenerSets?: readonly ListenerSet[];
  /** The ListenerSets whose parentRef names the Gateway (others are ignored), with the routes naming them in httpRoutes. */
  readonly listenerSets?: readonly ListenerSet[];
  readonly httpRoutes?: readonly HTTPRoute[];
  readonly referenceGrants?: readonly ReferenceGrant[];
  readonly serviceImports?: readonly ServiceImport[];
  readonly internalServiceExports?: readonly InternalServiceExport[];
  readonly namespaces?: readonly NamespaceLabels[];
}

/** Bad HubInputs text: the message lists every problem, each naming the field, the value and what is expected. */
export class HubInputsError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid HubInputs: ${problems.join('; ')}`);
    this.name = 'HubInputsError';
  }
}

const OBJECT_LISTS = {
  otherGateways: 'Gateway',
  listenerSets: 'ListenerSet',
  otherListenerSets: 'ListenerSet',
  httpRoutes: 'HTTPRoute',
  referenceGrants: 'ReferenceGrant',
  serviceImports: 'ServiceImport',
  internalServiceExports: 'InternalServiceExport',
} as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkObject(field: string, value: unknown, kind: string, problems: string[]): void {
  if (!isRecord(value)) return void problems.push(`${field} is ${JSON.stringify(value)}; expected a ${kind} object`);
  if (value['kind'] !== kind) problems.push(`${field}.kind is ${JSON.stringify(value['kind'])}; expected "${kind}"`);
  const metadata = value['metadata'];
  if (!isRecord(metadata) || typeof metadata['name'] !== 'string') problems.push(`${field}.metadata.name is missing; expected a name`);
}

/** Shape checks that keep resolve from failing on malformed fixtures or tool input; the schemas do the rest. */
function checkHubInputs(value: unknown): string[] {
  const problems: string[] = [];
  if (!isRecord(value)) return [`the document is ${JSON.stringify(value)}; expected a mapping with controller and gateway`];
  const controller = value['controller'];
  const sku = isRecord(controller) ? controller['defaultSku'] : undefined;
  if (typeof sku !== 'string' || !isSku(sku)) {
    problems.push(`controller.defaultSku is ${JSON.stringify(sku)}; expected ${gatewayContract.keys.sku.parser.expected}`);
  }
  checkObject('gateway', value['gateway'], 'Gateway', problems);
  const gateway = value['gateway'];
  if (isRecord(gateway) && !(isRecord(gateway['spec']) && Array.isArray(gateway['spec']['listeners']))) {
    problems.push('gateway.spec.listeners is missing; expected a list of listeners');
  }
  if (value['gatewayClass'] !== undefined) checkObject('gatewayClass', value['gatewayClass'], 'GatewayClass', problems);
  for (const [field, kind] of Object.entries(OBJECT_LISTS)) {
    const list = value[field];
    if (list === undefined) continue;
    if (!Array.isArray(list)) problems.push(`${field} is ${JSON.stringify(list)}; expected a list of ${kind} objects`);
    else list.forEach((item, i) => checkObject(`${field}[${i}]`, item, kind, problems));
  }
  return problems;
}

export function readHubInputs(text: string): HubInputs {
  const value: unknown = parse(text);
  const problems = checkHubInputs(value);
  if (problems.length > 0) throw new HubInputsError(problems);
  return value as HubInputs;
}

export function writeHubInputs(inputs: HubInputs): string {
  return stringify(inputs, { lineWidth: 0 });
}
