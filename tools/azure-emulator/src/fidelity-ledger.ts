import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';
import { parse } from 'yaml';

/** The ledger's data: the README's tables are rendered from it, e2e's assumption checks read it. */
export const FIDELITY_LEDGER_FILE = fileURLToPath(new URL('../fidelity-ledger.yaml', import.meta.url));

/** The README's behaviour tables, in its order: each is a `### ` section of the ledger. */
export const LEDGER_SECTIONS = ['arm', 'managed-identity', 'authorization', 'cdn', 'private-link', 'network', 'edge', 'cloud-provider'] as const;
export type LedgerSection = (typeof LEDGER_SECTIONS)[number];

/** One modelled behaviour and where it comes from (S schema, D documentation, A<n> an assumption, or who says so). */
export interface LedgerBehaviour {
  readonly behaviour: string;
  readonly source: string;
}

/** One assumption of the emulator and how an Azure-mode run checks it. */
export interface LedgerAssumption {
  readonly id: string;
  readonly assumption: string;
  readonly check: string;
}

export interface FidelityLedger {
  readonly behaviours: Readonly<Record<LedgerSection, readonly LedgerBehaviour[]>>;
  readonly assumptions: readonly LedgerAssumption[];
}

// A cell of a Markdown table row: one line, no blanks around it.
const CELL = { type: 'string', pattern: '^\\S(?:.*\\S)?$' };
const ASSUMPTION_ID = /^A([1-9]\d*)$/;

const LEDGER_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['behaviours', 'assumptions'],
  properties: {
    behaviours: {
      type: 'object',
      additionalProperties: false,
      required: [...LEDGER_SECTIONS],
      properties: Object.fromEntries(
        LEDGER_SECTIONS.map((section) => [
          section,
          {
            type: 'array',
            minItems: 1,
            items: { type: 'object', additionalProperties: false, required: ['behaviour', 'source'], properties: { behaviour: CELL, source: CELL } },
          },
        ]),
      ),
    },
    assumptions: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'assumption', 'check'],
        properties: { id: { type: 'string', pattern: ASSUMPTION_ID.source }, assumption: CELL, check: CELL },
      },
    },
  },
};

const validateLedger = new Ajv({ allErrors: true }).compile<FidelityLedger>(LEDGER_SCHEMA);

const ENTRY_FIELDS = { behaviours: ['behaviour', 'source'], assumptions: ['id', 'assumption', 'check'] } as const;

const assumptionEntry = (id: unknown, index: number | string) =>
  typeof id === 'string' ? `assumption ${id} (assumptions[${index}])` : `assumptions[${index}]`;

/** An ajv error as `<entry>: <what is wrong with which field>`, the entry named by its place (and an assumption by its id). */
function describeError(document: unknown, error: ErrorObject): string {
  const segments = error.instancePath.split('/').slice(1);
  const kind = segments[0] === 'behaviours' ? 'behaviours' : 'assumptions';
  const entryDepth = kind === 'behaviours' ? 3 : 2;
  const inEntry = segments.length >= entryDepth;
  const id = (document as { assumptions?: { id?: unknown }[] }).assumptions?.[Number(segments[1])]?.id;
  const entry = !inEntry
    ? segments.join('.') || 'the document'
    : kind === 'behaviours'
      ? `behaviours.${segments[1]}[${segments[2]}]`
      : assumptionEntry(id, segments[1] ?? '');
  const field = segments.slice(entryDepth).join('.');
  const params = error.params as { additionalProperty?: string; missingProperty?: string };
  const expected = inEntry
    ? ENTRY_FIELDS[kind].join(', ')
    : Object.keys((segments.length === 0 ? LEDGER_SCHEMA : LEDGER_SCHEMA.properties.behaviours).properties).join(', ');
  switch (error.keyword) {
    case 'additionalProperties':
      return `${entry}: unknown field "${params.additionalProperty}" (expected ${expected})`;
    case 'required':
      return `${entry}: missing field "${params.missingProperty}"`;
    case 'pattern':
    case 'type':
      if (field === 'id') return `${entry}: field "id" is ${JSON.stringify(id)}, expected A<n> (n from 1)`;
      if (field !== '') return `${entry}: field "${field}" must be one line of text without leading or trailing blanks (a Markdown table cell)`;
  }
  return `${entry}${field === '' ? '' : `: field "${field}"`} ${error.message ?? 'is invalid'}`;
}

/** Every text of the ledger, with the entry and field it is in. */
function* ledgerTexts(ledger: FidelityLedger): Generator<{ entry: string; field: string; text: string }> {
  for (const section of LEDGER_SECTIONS) {
    for (const [index, { behaviour, source }] of ledger.behaviours[section].entries()) {
      const entry = `behaviours.${section}[${index}]`;
      yield { entry, field: 'behaviour', text: behaviour };
      yield { entry, field: 'source', text: source };
    }
  }
  for (const [index, { id, assumption, check }] of ledger.assumptions.entries()) {
    yield { entry: assumptionEntry(id, index), field: 'assumption', text: assumption };
    yield { entry: assumptionEntry(id, index), field: 'check', text: check };
  }
}

/** Ids unique and increasing, and every `A<n>` any text names is an assumption of the ledger. */
function crossCheck(ledger: FidelityLedger): string[] {
  const problems: string[] = [];
  let previous = 0;
  for (const [index, { id }] of ledger.assumptions.entries()) {
    const n = Number(ASSUMPTION_ID.exec(id)?.[1]);
    if (n <= previous) problems.push(`${assumptionEntry(id, index)}: field "id" must be unique and follow A${previous} (ids in increasing order)`);
    previous = Math.max(previous, n);
  }
  const ids = new Set(ledger.assumptions.map((a) => a.id));
  for (const { entry, field, text } of ledgerTexts(ledger)) {
    for (const [reference] of text.matchAll(/\bA[1-9]\d*\b/g))
      if (!ids.has(reference)) problems.push(`${entry}: field "${field}" names ${reference}, which is not an assumption of the ledger`);
  }
  return problems;
}

/** Pure: the ledger from the YAML text; throws naming every bad entry and field. */
export function parseFidelityLedger(text: string, file = FIDELITY_LEDGER_FILE): FidelityLedger {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`${file}: not YAML: ${(error as Error).message}`, { cause: error });
  }
  if (!validateLedger(document)) throw new Error(`${file}:\n${(validateLedger.errors ?? []).map((e) => `  ${describeError(document, e)}`).join('\n')}`);
  const problems = crossCheck(document);
  if (problems.length > 0) throw new Error(`${file}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return document;
}

export function readFidelityLedger(): FidelityLedger {
  return parseFidelityLedger(readFileSync(FIDELITY_LEDGER_FILE, 'utf8'));
}

// GitHub splits a table row at every unescaped `|`, inside code spans too.
const tableRow = (cells: readonly string[]) => `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;

/**
 * The README's ledger tables by generated-section name (`fidelity-ledger-<section>`, `fidelity-ledger-assumptions`),
 * each spliced between its `<!-- BEGIN GENERATED: … -->` markers.
 */
export function renderLedgerTables(ledger: FidelityLedger): Map<string, string> {
  const tables = new Map<string, string>();
  for (const section of LEDGER_SECTIONS) {
    tables.set(
      `fidelity-ledger-${section}`,
      ['| behaviour | source |', '| --- | --- |', ...ledger.behaviours[section].map((b) => tableRow([b.behaviour, b.source]))].join('\n'),
    );
  }
  tables.set(
    'fidelity-ledger-assumptions',
    ['| # | assumption | Azure-mode check |', '| --- | --- | --- |', ...ledger.assumptions.map((a) => tableRow([a.id, a.assumption, a.check]))].join('\n'),
  );
  return tables;
}
