import { formatArmPath, type ArmPath } from './resource-id.js';
import type { ResourceBody, ResourceRecord } from './store.js';
import type { DefinitionRef } from './validation.js';
import type { EmulatorContext } from '../emulator-context.js';

export type Provider = 'Microsoft.Cdn' | 'Microsoft.Network';

/** A write that passed schema validation, before anything changes. */
export interface WriteRequest {
  method: 'PUT' | 'PATCH';
  path: ArmPath;
  key: string;
  existing?: ResourceRecord;
  parent?: ResourceRecord;
  /** The body the resource will have if the write is accepted (PUT: as sent + defaults; PATCH: merged). */
  body: ResourceBody;
}

/**
 * One ARM resource type as its REST spec defines it: verbs, which are long-running, the body schemas;
 * plus the semantic rules the service enforces beyond the schema. Hooks receive the emulator context.
 */
export interface ResourceKind {
  provider: Provider;
  /** Canonical casing, e.g. ['profiles', 'originGroups', 'origins']. */
  types: readonly string[];
  /**
   * The api-versions served, the spec's own first: request bodies are validated against the first one's schemas
   * (the only version of the spec vendored), responses have one shape for all of them (ledger A57).
   */
  apiVersions: readonly string[];
  /** Tracked resources carry location and tags. */
  tracked: boolean;
  /** The PUT body definition; `null` when PUT takes no body (RuleSets_Create). Absent: no PUT through ARM. */
  putSchema?: DefinitionRef | null;
  /** The PATCH body definition; absent when the spec has no PATCH. */
  patchSchema?: DefinitionRef;
  /** Which verbs are long-running in the spec. */
  lro: { put: boolean; patch: boolean; delete: boolean };
  /** Whether DELETE exists through ARM. */
  deletable: boolean;
  /** `type` in responses when it is neither the spec's casing nor Microsoft.Cdn's lower-cased children. */
  responseType?: string;
  /** The spec's AFDStateProperties: the resource reports deploymentStatus. */
  hasDeploymentStatus?: boolean;
  /** Semantic checks (limits, references, conflicts). Throw an ArmError to refuse; must not change state. */
  check?(request: WriteRequest, context: EmulatorContext): void;
  /** Fills generated values into the accepted body/record (addresses, host names, ids of sub-resources). */
  prepare?(record: ResourceRecord, request: WriteRequest, context: EmulatorContext): void;
  /** Read-only properties computed at read time. */
  render?(record: ResourceRecord, context: EmulatorContext): Record<string, unknown>;
  /** Refuses a delete (e.g. still referenced). Must not change state. */
  checkDelete?(record: ResourceRecord, context: EmulatorContext): void;
  /** The resource's write operation succeeded. */
  onProvisioned?(record: ResourceRecord, context: EmulatorContext): void;
  /** The resource is gone (deleted directly or with its parent). */
  onRemoved?(record: ResourceRecord, context: EmulatorContext): void;
  /**
   * Long-running POST actions on the resource (`.../{name}/{action}`), by lower-cased action name: `start` runs when
   * the POST is accepted, `complete` when its operation succeeds.
   */
  actions?: Readonly<Record<string, ResourceAction>>;
}

export interface ResourceAction {
  start(record: ResourceRecord, context: EmulatorContext): void;
  complete(record: ResourceRecord, context: EmulatorContext): void;
}

export function typeName(kind: ResourceKind): string {
  return [kind.provider, ...kind.types].join('/');
}

/**
 * `type` as Azure returns it, which is not the spec path's casing: Microsoft.Cdn lower-cases every child type
 * (`Microsoft.Cdn/profiles/afdendpoints`, `.../origingroups/origins`); Microsoft.Network keeps the spec's casing
 * except where a kind says otherwise (`responseType`).
 */
export function responseTypeOf(kind: ResourceKind): string {
  if (kind.responseType !== undefined) return kind.responseType;
  if (kind.provider !== 'Microsoft.Cdn') return typeName(kind);
  const [top, ...children] = kind.types;
  return [kind.provider, top, ...children.map((type) => type.toLowerCase())].join('/');
}

/**
 * The id as Azure returns it: Microsoft.Cdn spells `resourcegroups` and every type segment in lower case whatever the
 * request said (Azure/azure-cli#28412, hashicorp/terraform-provider-azurerm#26375, #18844); names keep the casing
 * they were created with. Microsoft.Network ids keep ARM's `resourceGroups` and the spec's type casing.
 */
export function responseIdOf(path: ArmPath, kind: ResourceKind): string {
  if (kind.provider !== 'Microsoft.Cdn') return formatArmPath(path);
  const scope =
    path.resourceGroup === undefined ? `/subscriptions/${path.subscriptionId}` : `/subscriptions/${path.subscriptionId}/resourcegroups/${path.resourceGroup}`;
  const tail = path.types.flatMap((type, i) => [type.toLowerCase(), path.names[i] as string]);
  return `${scope}/providers/${kind.provider}/${tail.join('/')}`;
}
