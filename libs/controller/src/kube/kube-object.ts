import type { ManagedFieldsEntry } from '../status/apply-is-noop.js';

export interface ObjectMeta {
  readonly name: string;
  readonly namespace?: string;
  readonly uid?: string;
  readonly resourceVersion?: string;
  readonly generation?: number;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly ownerReferences?: readonly unknown[];
  readonly deletionTimestamp?: string;
  readonly finalizers?: readonly string[];
  readonly managedFields?: readonly ManagedFieldsEntry[];
}

/** Any Kubernetes object as plain JSON (no client-side model classes: timestamps stay strings). */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata: ObjectMeta;
}

export interface KubeList<T extends KubeObject> {
  readonly metadata: { readonly resourceVersion?: string; readonly continue?: string };
  readonly items: T[];
}

/** metav1.Status, as the API server returns it for errors and in watch ERROR events. */
export interface KubeStatus {
  readonly kind?: 'Status';
  readonly code?: number;
  readonly reason?: string;
  readonly message?: string;
}
