import type { ResourceKind } from './kind.js';
import type { OperationError, OperationTiming, OperationTracker } from './lro.js';
import type { ResourceGroups } from './resource-groups.js';
import { kindKeyOf } from './resource-id.js';
import type { ResourceStore } from './store.js';
import type { SchemaValidator } from './validation.js';

export interface DeploymentTiming {
  /** `stuck` keeps deploymentStatus at NotStarted for ever, as has been seen on real Azure. */
  mode: 'progress' | 'stuck';
  notStartedMs: number;
  inProgressMs: number;
}

/** What the generic ARM machinery needs; resource kinds receive a context that extends it. */
export interface ArmContext {
  store: ResourceStore;
  resourceGroups: ResourceGroups;
  validator: SchemaValidator;
  operations: OperationTracker;
  kinds: KindRegistry;
  pageSize: number;
  deployment: DeploymentTiming;
  /** How long operations run and the Retry-After their answers carry. */
  timing: OperationTiming;
  /** A pending fault that makes the next matching long-running operation end Failed. */
  takeLroFailure(method: string, path: string): OperationError | undefined;
  now(): number;
}

export class KindRegistry {
  private readonly kinds = new Map<string, ResourceKind>();

  register(kind: ResourceKind): void {
    this.kinds.set(kindKeyOf(kind.provider, kind.types), kind);
  }

  find(kindKey: string): ResourceKind | undefined {
    return this.kinds.get(kindKey);
  }

  all(): ResourceKind[] {
    return [...this.kinds.values()];
  }
}
