import { isConflict } from '../kube/kube-api-error.js';
import type { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import { apiVersionOf, objectPath, type ResourceType } from '../kube/resource-type.js';
import { silentLogger, type Logger } from '../observability/logger.js';
import { isPlainObject, jsonEqual } from '../util/deep-equal.js';
import { applyIsNoop } from './apply-is-noop.js';
import { spliceOwnedEntries, type OwnedEntryRule } from './splice-owned-entries.js';
import { findByKeys, stampStatus, type ListKeys } from './stamp-status.js';

export interface StatusWriterOptions {
  readonly client: KubeClient;
  /** The agent's field manager; server-side apply records ownership under it. */
  readonly fieldManager: string;
  /** Attempts of a read-splice-write before giving up on conflicts. Default 5. */
  readonly maxAttempts?: number;
  readonly logger?: Logger;
  /** Clock for transition times; tests pin it. */
  readonly now?: () => Date;
}

export type StatusWriteResult<T extends KubeObject> = { readonly written: false } | { readonly written: true; readonly object: T };

export interface SpliceRequest<E> {
  /** Where the shared atomic list sits under `status`, e.g. `['parents']`. */
  readonly listPath: readonly string[];
  /** All of our entries as they should be; entries of other controllers are never touched. */
  readonly entries: readonly E[];
  readonly rule: OwnedEntryRule<E>;
}

/**
 * The one place status is written. Callers pass status computed as new values; the writer stamps condition
 * transition times (kept when a status did not change), skips the request entirely when nothing would change, and
 * never drops other controllers' entries:
 * - `apply`: server-side apply to the status subresource under our field manager, for keyed lists and maps
 *   (conditions, listeners), where the API server merges per key.
 * - `splice`: for atomic lists shared with other controllers (Gateway API v1.2.1's HTTPRoute.status.parents, which
 *   apply and merge patch would both replace whole): read, replace only our entries, write back with a
 *   resourceVersion precondition, and on conflict re-read and try again.
 */
export class StatusWriter {
  private readonly logger: Logger;
  private readonly now: () => Date;
  private writeCount = 0;

  constructor(private readonly options: StatusWriterOptions) {
    this.logger = options.logger ?? silentLogger();
    this.now = options.now ?? (() => new Date());
  }

  /** Requests sent that changed (or tried to change) status; skipped writes do not count. */
  get writes(): number {
    return this.writeCount;
  }

  async apply<T extends KubeObject>(
    resource: ResourceType,
    current: T,
    status: Record<string, unknown>,
    listKeys: ListKeys = {},
  ): Promise<StatusWriteResult<T>> {
    const currentStatus = (current as { status?: unknown }).status;
    const stamped = stampStatus(status, currentStatus, this.now(), listKeys);
    if (applyIsNoop(currentStatus, stamped, current.metadata.managedFields, this.options.fieldManager)) {
      return { written: false };
    }
    const { name, namespace } = current.metadata;
    const body = {
      apiVersion: apiVersionOf(resource),
      kind: resource.kind,
      metadata: { name, ...(namespace ? { namespace } : {}) },
      status: stamped,
    };
    this.writeCount += 1;
    const object = await this.options.client.patch<T>(`${objectPath(resource, name, namespace)}/status`, body, 'apply', {
      fieldManager: this.options.fieldManager,
      force: true,
    });
    this.logger.debug('applied status', { kind: resource.kind, namespace, name });
    return { written: true, object };
  }

  async splice<T extends KubeObject, E>(resource: ResourceType, current: T, request: SpliceRequest<E>): Promise<StatusWriteResult<T>> {
    const { name, namespace } = current.metadata;
    const path = objectPath(resource, name, namespace);
    const attempts = this.options.maxAttempts ?? 5;
    let object = current;
    for (let attempt = 1; ; attempt++) {
      const existing = listAt((object as { status?: unknown }).status, request.listPath) as E[];
      const ours = existing.filter(request.rule.isOurs);
      const now = this.now();
      const stamped = request.entries.map((entry) => stampStatus(entry, findByKeys(ours, entry, request.rule.keyFields), now));
      const spliced = spliceOwnedEntries(existing, stamped, request.rule);
      if (jsonEqual(spliced, existing)) return { written: false };
      const patch = {
        metadata: { resourceVersion: object.metadata.resourceVersion },
        status: nest(request.listPath, spliced),
      };
      this.writeCount += 1;
      try {
        const written = await this.options.client.patch<T>(`${path}/status`, patch, 'merge');
        return { written: true, object: written };
      } catch (error) {
        if (!isConflict(error) || attempt >= attempts) throw error;
        this.logger.debug('status conflict; re-reading', { kind: resource.kind, namespace, name, attempt });
        object = await this.options.client.get<T>(path);
      }
    }
  }
}

function listAt(status: unknown, path: readonly string[]): unknown[] {
  let value: unknown = status;
  for (const key of path) value = isPlainObject(value) ? value[key] : undefined;
  return Array.isArray(value) ? value : [];
}

function nest(path: readonly string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}
