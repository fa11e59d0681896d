import { randomUUID } from 'node:crypto';
import { formatArmPath, resourceKey, type ArmPath } from './resource-id.js';

export type ProvisioningState = 'Creating' | 'Updating' | 'Deleting' | 'Succeeded' | 'Failed';

/** The parts of an ARM resource document a client writes (everything but id, name, type, systemData). */
export interface ResourceBody {
  location?: string;
  tags?: Record<string, string>;
  sku?: { name?: string; tier?: string };
  properties: Record<string, unknown>;
  [topLevel: string]: unknown;
}

export interface ResourceRecord {
  /** The id with the casing of the request that created the resource (ARM keeps the first casing). */
  id: string;
  key: string;
  kindKey: string;
  path: ArmPath;
  name: string;
  body: ResourceBody;
  /** The body as last provisioned successfully: what the data plane serves. */
  applied?: ResourceBody;
  provisioningState: ProvisioningState;
  etag: string;
  createdAt: string;
  modifiedAt: string;
  /** When the resource's last write operation succeeded, in ms since the epoch: AFD's deploymentStatus runs from there. */
  provisionedAtMs?: number;
  /** The in-flight long-running operation on this resource, if any. */
  operationId?: string;
  /** Kind-specific state the emulator keeps beside the body (generated host names, addresses...). */
  internal: Record<string, unknown>;
}

/**
 * A resource the emulator creates by itself, already provisioned, rather than through an ARM write (WAF policies from
 * the admin API, AFD's private endpoint connections).
 */
export function provisionedRecord(path: ArmPath, kindKey: string, body: ResourceBody, nowMs: number, internal: Record<string, unknown> = {}): ResourceRecord {
  const id = formatArmPath(path);
  const now = new Date(nowMs).toISOString();
  return {
    id,
    key: resourceKey(id),
    kindKey,
    path,
    name: path.names[path.names.length - 1] as string,
    body,
    applied: structuredClone(body),
    provisioningState: 'Succeeded',
    etag: `W/"${randomUUID()}"`,
    createdAt: now,
    modifiedAt: now,
    provisionedAtMs: nowMs,
    internal,
  };
}

type ChangeListener = () => void;

/** All emulated resources, keyed by lower-cased id, with an index per kind. */
export class ResourceStore {
  private readonly records = new Map<string, ResourceRecord>();
  private readonly byKind = new Map<string, Map<string, ResourceRecord>>();
  private readonly listeners = new Set<ChangeListener>();
  private version = 0;

  get(key: string): ResourceRecord | undefined {
    return this.records.get(key);
  }

  put(record: ResourceRecord): void {
    this.records.set(record.key, record);
    let kind = this.byKind.get(record.kindKey);
    if (kind === undefined) {
      kind = new Map();
      this.byKind.set(record.kindKey, kind);
    }
    kind.set(record.key, record);
  }

  remove(key: string): ResourceRecord | undefined {
    const record = this.records.get(key);
    if (record === undefined) return undefined;
    this.records.delete(key);
    this.byKind.get(record.kindKey)?.delete(key);
    return record;
  }

  /** Records of one kind, in creation order, optionally limited to those under a parent key. */
  ofKind(kindKey: string, underKey?: string): ResourceRecord[] {
    const kind = this.byKind.get(kindKey);
    if (kind === undefined) return [];
    const all = [...kind.values()];
    if (underKey === undefined) return all;
    const prefix = `${underKey}/`;
    return all.filter((record) => record.key.startsWith(prefix));
  }

  /** Records of one kind in a subscription (subscription ids compare case-insensitively, as every ARM id part). */
  inSubscription(kindKey: string, subscriptionId: string): ResourceRecord[] {
    const subscription = subscriptionId.toLowerCase();
    return this.ofKind(kindKey).filter((record) => record.path.subscriptionId.toLowerCase() === subscription);
  }

  /** Every record strictly under a key, deepest first (the order a cascade delete removes them in). */
  descendants(key: string): ResourceRecord[] {
    const prefix = `${key}/`;
    return [...this.records.values()].filter((record) => record.key.startsWith(prefix)).sort((a, b) => b.key.split('/').length - a.key.split('/').length);
  }

  all(): ResourceRecord[] {
    return [...this.records.values()];
  }

  /** Signals that what the data plane should serve may have changed. */
  changed(): void {
    this.version += 1;
    for (const listener of this.listeners) listener();
  }

  currentVersion(): number {
    return this.version;
  }

  onChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
