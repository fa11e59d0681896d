import { describeRef, refName, type AfdRef } from '../plan/afd-refs.js';
import { differences, type Comparable } from './comparable.js';
import type { Observed } from '../observe/observe.js';
import type { Operation } from './operations.js';
import type { Provenance } from '../plan/spec-types.js';

export interface Note {
  readonly ref: AfdRef;
  readonly reason: string;
}

export function byName<T>(items: readonly Observed<T>[]): Map<string, Observed<T>> {
  return new Map(items.map((item) => [key(item.parent ?? '', item.name), item]));
}

/** Lookup key of a resource within its parent (ARM names compare case-insensitively). */
export function key(parent: string, name: string): string {
  return `${parent}/${name}`.toLowerCase();
}

/** Collects the diff's outcome per resource: a write, unchanged, kept on purpose, or not programmable yet. */
export class DiffBuilder {
  readonly operations: Operation[] = [];
  readonly unchanged: AfdRef[] = [];
  readonly kept: Note[] = [];
  readonly notProgrammed: Note[] = [];

  /** Create when absent, update when a managed field differs, nothing otherwise. */
  converge(ref: AfdRef, body: object, want: Comparable, observed: Comparable | undefined, provenance: Provenance, observedState?: string): void {
    if (observed === undefined) {
      this.operations.push({ action: 'create', ref, body, changes: [], reason: `${describeRef(ref)} does not exist`, provenance });
      return;
    }
    // A resource whose last write failed is written again, even when its properties look right.
    const changes = [...differences(want, observed), ...(observedState === 'Failed' ? ['provisioningState Failed'] : [])];
    if (changes.length === 0) {
      this.unchanged.push(ref);
      return;
    }
    this.operations.push({ action: 'update', ref, body, changes, reason: `${describeRef(ref)} differs: ${changes.join(', ')}`, provenance });
  }

  /** `converge` for every spec of a kind, looking each up among the observed resources by parent and name. */
  convergeAll<S extends { ref: AfdRef; provenance: Provenance }, A extends { provisioningState?: string }>(
    specs: readonly S[],
    observed: readonly Observed<A>[],
    parentOf: (spec: S) => string,
    bodyOf: (spec: S) => object,
    project: (arm: A) => Comparable,
  ): void {
    const current = byName(observed);
    for (const spec of specs) {
      const have = current.get(key(parentOf(spec), refName(spec.ref)));
      const body = bodyOf(spec);
      this.converge(spec.ref, body, project(body as A), have && project(have.arm), spec.provenance, have?.arm.provisioningState);
    }
  }

  remove(ref: AfdRef, reason: string): void {
    this.operations.push({ action: 'delete', ref, changes: [], reason, provenance: [] });
  }

  keep(ref: AfdRef, reason: string): void {
    this.kept.push({ ref, reason });
  }
}
