import { apiVersionOf, applyIsNoop, isNotFound, objectPath, type KubeClient } from '@fleet-gateway/controller';
import type { InternalServiceExportSpec } from '@fleet-gateway/api-types';
import { internalServiceExports, type CachedInternalServiceExport } from './member-resources.js';

/**
 * Writes the member's InternalServiceExports on the hub, in its own namespace only: `spec` by server-side apply under
 * the member's field manager (the hub's status, finalizer and conditions stay its own), nothing sent when the apply
 * would change nothing (decided from managedFields, so also right after a restart), and deletes of exactly the
 * export that was judged (uid precondition).
 */
export class HubExportWriter {
  private writeCount = 0;

  constructor(
    private readonly client: KubeClient,
    private readonly namespace: string,
    private readonly fieldManager: string,
  ) {}

  /** Requests sent to the hub (applies and deletes); skipped applies do not count. */
  get writes(): number {
    return this.writeCount;
  }

  /** Returns the export as written, or undefined when nothing needed writing. */
  async apply(
    name: string,
    current: CachedInternalServiceExport | undefined,
    spec: InternalServiceExportSpec,
  ): Promise<CachedInternalServiceExport | undefined> {
    if (current && applyIsNoop(current.spec, { ...spec }, current.metadata.managedFields, this.fieldManager, { field: 'spec' })) return undefined;
    const body = {
      apiVersion: apiVersionOf(internalServiceExports),
      kind: internalServiceExports.kind,
      // No resourceVersion: the apply merges field by field, so the hub's status writes never conflict with it.
      metadata: { name, namespace: this.namespace },
      spec,
    };
    this.writeCount += 1;
    return this.client.patch<CachedInternalServiceExport>(objectPath(internalServiceExports, name, this.namespace), body, 'apply', {
      fieldManager: this.fieldManager,
      force: true,
    });
  }

  /** Deletes the export if it is still the one with `uid`; gone already is fine. */
  async delete(name: string, uid: string | undefined): Promise<void> {
    this.writeCount += 1;
    try {
      await this.client.request('DELETE', objectPath(internalServiceExports, name, this.namespace), {
        body: { apiVersion: 'v1', kind: 'DeleteOptions', ...(uid ? { preconditions: { uid } } : {}) },
      });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
