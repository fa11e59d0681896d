import type { AnnotatedKind } from './known-values.js';
import type { ValueParser } from './value-parser.js';

/** One row of the contract: what the parser enforces and what the README documents come from here alone. */
export interface AnnotationSpec<T> {
  readonly key: string;
  readonly summary: string;
  readonly parser: ValueParser<T>;
  /** Used only when the key is absent; an invalid explicit value never falls back to it. */
  readonly defaultValue: T | undefined;
  readonly defaultText: string;
  readonly example: string;
}

export type SpecTable = Record<string, AnnotationSpec<unknown>>;

/** The typed config a table yields: a field is optional exactly when its key has no default. */
export type ConfigOf<S extends SpecTable> = {
  readonly [F in keyof S]: S[F] extends AnnotationSpec<infer T> ? (S[F]['defaultValue'] extends undefined ? T | undefined : T) : never;
};

/** The keys one kind of object may carry, and how its errors surface in status. */
export interface KindContract<S extends SpecTable> {
  readonly kind: AnnotatedKind;
  /** Where the keys live, as a phrase for messages: "on a Gateway (metadata.annotations)". */
  readonly placement: string;
  /** The condition (type=status) that an error on this kind sets, and the reason it uses. */
  readonly condition: string;
  readonly reason: string;
  readonly keys: S;
  /** Keys that exist in the contract only to be refused. */
  readonly reserved: readonly AnnotationSpec<never>[];
}

export function defineKey<T, D extends T | undefined>(
  spec: Omit<AnnotationSpec<T>, 'defaultValue'> & { readonly defaultValue: D },
): AnnotationSpec<T> & { readonly defaultValue: D } {
  return spec;
}
