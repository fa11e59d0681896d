import type { Explanation } from './explain-request.js';

/** The explanation for people: one aligned `what: value` line per step, the origins as a small table. */
export function renderExplanation(explanation: Explanation): string {
  const { request, listener, pathKey, match, afd } = explanation;
  const query = request.query.map((q) => `${q.name}=${q.value}`).join('&');
  const rows: [string, string][] = [
    ['request', `${request.method} ${request.scheme ?? '(any scheme)'}://${request.host}${request.path}${query ? `?${query}` : ''}`],
    ...request.headers.map((h): [string, string] => ['header', `${h.name}: ${h.value}`]),
    ['outcome', explanation.outcome],
    ...(listener ? [['listener', `${listener.name} (${listener.protocol} ${listener.hostname})`] as [string, string]] : []),
    ...(pathKey ? [['path key', pathKey] as [string, string]] : []),
    ...explanation.skipped.map((s): [string, string] => ['skipped', s]),
    ...(match ? [['match', `HTTPRoute ${match.route} rule ${match.rule} match ${match.match}`] as [string, string]] : []),
    ...(afd
      ? ([
          ['AFD domain', afd.domain],
          ['AFD route', `${afd.route ?? '(none planned)'} pattern ${afd.pattern}`],
          ...afd.rules.map((r): [string, string] => ['AFD rule', r]),
          ['origin group', afd.originGroup ?? '(none)'],
        ] as [string, string][])
      : []),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const lines = rows.map(([k, v]) => `${`${k}:`.padEnd(width + 1)}  ${v}`);
  if (explanation.origins.length > 0) {
    const cells = explanation.origins.map((o) => [
      o.cluster,
      o.backend,
      o.state,
      o.weight === undefined ? '-' : String(o.weight),
      o.percent === undefined ? '-' : `${o.percent}%`,
    ]);
    const table = [['CLUSTER', 'BACKEND', 'STATE', 'WEIGHT', 'SHARE'], ...cells];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    lines.push(
      '',
      ...table.map((row) =>
        row
          .map((cell, i) => cell.padEnd(widths[i]!))
          .join('  ')
          .trimEnd(),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}
