/** PromQL words that are not metric names when they stand alone (operators, modifiers, number literals). */
const KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'inf', 'nan']);

/**
 * The metric names a PromQL expression selects. promtool cannot list them, so this strips what holds no name (strings,
 * label matchers, ranges, grouping label lists) and keeps each remaining word that is not a function or aggregation
 * (followed by `(`), a keyword, a number or a Grafana variable.
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""')
    .replace(/\{[^}]*\}/g, '{}')
    .replace(/\[[^\]]*\]/g, '[]')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/\$?[0-9.][\w.]*|\$?[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const word = match[0];
    if (word.startsWith('$') || /^[0-9.]/.test(word) || KEYWORDS.has(word.toLowerCase())) continue;
    if (/^\s*\(/.test(bare.slice(match.index + word.length))) continue;
    names.add(word);
  }
  return [...names];
}
