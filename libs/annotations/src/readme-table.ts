import type { AnnotationSpec, KindContract, SpecTable } from './annotation-spec.js';
import { annotationContracts } from './contract.js';

function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

function row(contract: KindContract<SpecTable>, spec: AnnotationSpec<unknown>, values: string, dflt: string): string {
  const where = contract.placement;
  const cells = [`\`${spec.key}\``, where, values, dflt, `\`${spec.example}\``, spec.summary];
  return `| ${cells.map(cell).join(' | ')} |`;
}

/** The README's key table, rendered from the same contract the parser enforces. */
export function renderAnnotationTable(): string {
  const lines = ['| key | on | values | default | example | meaning |', '| --- | --- | --- | --- | --- | --- |'];
  for (const contract of annotationContracts) {
    for (const spec of Object.values(contract.keys)) {
      lines.push(row(contract, spec, spec.parser.expected, spec.defaultText));
    }
    for (const spec of contract.reserved) {
      lines.push(row(contract, spec, 'reserved: any value is rejected', spec.defaultText));
    }
  }
  return lines.join('\n');
}

/** Where each kind's errors surface, and with which reason; also rendered into the README. */
export function renderErrorReasonTable(): string {
  const lines = ['| keys on | an error sets | reason |', '| --- | --- | --- |'];
  for (const contract of annotationContracts) {
    lines.push(`| ${contract.kind} | ${contract.condition} | \`${contract.reason}\` |`);
  }
  return lines.join('\n');
}
