import type { ModelFilter, ModelMatch, PathKey } from '@fleet-gateway/model';
import type { RuleAction } from './spec-types.js';

/**
 * How the requests of a `/p/*` route reach the origin with their URLRewrite path filters. AFD's UrlRewrite sees only
 * what follows the route's pattern (A60: on `/p/*` it never sees `/p`), so a rule cannot replace the prefix; the
 * route's `originPath` can (A67: it takes the place of `/p`). When every candidate that forwards replaces the prefix
 * with the same thing, that is the origin path and no rule rewrites. Otherwise the origin path is `/` (dropping `/p`)
 * and each forwarding candidate's rule puts back what its filter asks for: `/p` itself when it has none, its
 * replacement, or its full path.
 */
export interface PathRewrite {
  readonly originPath: string;
  /** By candidate (sequence order): the rewrite its rule carries in place of its filter's; undefined: none. */
  readonly rewrites: ReadonlyArray<RuleAction | undefined>;
}

type Effect =
  { readonly kind: 'answers' | 'keeps' } | { readonly kind: 'prefix'; readonly replaced: string } | { readonly kind: 'full'; readonly path: string };

/**
 * What a ReplacePrefixMatch leaves in place of the subtree's value `subtree` (which lies under the match's prefix):
 * Gateway API replaces the prefix's whole segments and ignores a trailing `/` on either side, so `/a` -> `/b` turns
 * `/a/c/x` into `/b/c/x` (`/b/c` in place of `/a/c`); `/` as a prefix replaces nothing: `/` -> `/b` gives `/b/a/x`.
 */
function replacedPrefix(subtree: string, prefix: string, replacement: string): string {
  const matched = prefix === '/' ? '' : prefix;
  return `${replacement.replace(/\/+$/, '')}${subtree.slice(matched.length)}`;
}

function effectOf(subtree: string, filters: readonly ModelFilter[], match: ModelMatch): Effect {
  if (filters.some((f) => f.type === 'RequestRedirect')) return { kind: 'answers' };
  const rewrite = filters.find((f) => f.type === 'URLRewrite');
  if (rewrite === undefined) return { kind: 'keeps' };
  return rewrite.path.type === 'ReplaceFullPath'
    ? { kind: 'full', path: rewrite.path.value }
    : { kind: 'prefix', replaced: replacedPrefix(subtree, match.path.value, rewrite.path.value) };
}

const restore = (destination: string, preserveUnmatchedPath = true): RuleAction => ({
  type: 'rewrite',
  sourcePattern: '/',
  destination,
  preserveUnmatchedPath,
});

/**
 * The path handling of one path's sequence of candidates (their filters and matches, in order), or undefined when the
 * plain rule rewrites are right: exact paths and `/*`, whose rules see the whole path (A60), and subtrees no filter
 * rewrites.
 */
export function planPathRewrite(path: PathKey, candidates: ReadonlyArray<{ filters: readonly ModelFilter[]; match: ModelMatch }>): PathRewrite | undefined {
  if (path.kind === 'Exact' || path.value === '/') return undefined;
  const effects = candidates.map((c) => effectOf(path.value, c.filters, c.match));
  if (!effects.some((e) => e.kind === 'prefix' || e.kind === 'full')) return undefined;
  const forwarding = effects.filter((e) => e.kind !== 'answers');
  const first = forwarding[0];
  if (first?.kind === 'prefix' && forwarding.every((e) => e.kind === 'prefix' && e.replaced === first.replaced)) {
    return { originPath: first.replaced === '' ? '/' : first.replaced, rewrites: effects.map(() => undefined) };
  }
  return {
    originPath: '/',
    rewrites: effects.map((e) => {
      switch (e.kind) {
        case 'answers':
          return undefined;
        case 'keeps':
          return restore(`${path.value}/`);
        case 'prefix':
          return restore(`${e.replaced}/`);
        case 'full':
          return restore(e.path, false);
      }
    }),
  };
}

/** A candidate's actions with the planned rewrite in place of its filter's (added when it had none). */
export function withPlannedRewrite(actions: readonly RuleAction[], planned: RuleAction | undefined): RuleAction[] {
  const others = actions.filter((a) => a.type !== 'rewrite');
  if (planned === undefined) return others;
  const at = actions.findIndex((a) => a.type === 'rewrite');
  return at === -1 ? [...others, planned] : [...others.slice(0, at), planned, ...others.slice(at)];
}
