import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { FIDELITY_LEDGER_FILE, LEDGER_SECTIONS, parseFidelityLedger, readFidelityLedger, renderLedgerTables } from './fidelity-ledger.js';

/** A valid ledger to break one field of. */
const smallLedger = (): { behaviours: Record<string, object[]>; assumptions: object[] } => ({
  behaviours: Object.fromEntries(LEDGER_SECTIONS.map((section) => [section, [{ behaviour: `${section} behaviour`, source: 'D; code A1' }]])),
  assumptions: [
    { id: 'A1', assumption: 'first', check: 'PUT it; record the answer' },
    { id: 'A2', assumption: 'second, like A1', check: 'GET it; record the answer' },
  ],
});
const parseObject = (document: unknown) => parseFidelityLedger(stringify(document), 'ledger.yaml');

describe('the fidelity ledger', () => {
  it('ships valid: every section, the assumptions in order, every A<n> named is one of them', () => {
    const ledger = readFidelityLedger();
    for (const section of LEDGER_SECTIONS) expect(ledger.behaviours[section].length, section).toBeGreaterThan(0);
    expect(ledger.assumptions.length).toBeGreaterThan(50);
    expect(ledger.assumptions[0]?.id).toBe('A1');
    expect(ledger.assumptions.find((a) => a.id === 'A66')?.check).toMatch(/LinkedAuthorizationFailed/);
  });

  it('renders one row per entry, a `|` in a text escaped so that the row keeps its cells', () => {
    // Texts with what Markdown, YAML and the row's escaping care about; trimmed, as a cell is.
    const row = fc
      .string({ unit: fc.constantFrom('a', 'A', '1', ' ', '|', '\\', '`', ':', '#', '-', '"'), minLength: 1 })
      .map((text) => text.trim())
      .filter((text) => text.length > 0 && !/\bA[1-9]/.test(text));
    fc.assert(
      fc.property(row, row, (behaviour, source) => {
        const ledger = parseObject({ ...smallLedger(), behaviours: { ...smallLedger().behaviours, arm: [{ behaviour, source }] } });
        const table = renderLedgerTables(ledger).get('fidelity-ledger-arm')?.split('\n') ?? [];
        expect(table.slice(0, 2)).toEqual(['| behaviour | source |', '| --- | --- |']);
        expect(table).toHaveLength(3);
        const cells = (table[2] ?? '').slice(2, -2).split(' | ');
        expect(cells.map((cell) => cell.replaceAll('\\|', '|'))).toEqual([behaviour, source]);
      }),
      { numRuns: 200 },
    );
    const { assumptions } = parseObject(smallLedger());
    expect(renderLedgerTables(parseObject(smallLedger())).get('fidelity-ledger-assumptions')).toBe(
      ['| # | assumption | Azure-mode check |', '| --- | --- | --- |', ...assumptions.map((a) => `| ${a.id} | ${a.assumption} | ${a.check} |`)].join('\n'),
    );
  });

  it('refuses an unknown field, naming the entry and the field', () => {
    const document = smallLedger();
    document.assumptions[1] = { id: 'A2', assumption: 'second', check: 'GET it', enforcedBy: 'x' };
    expect(() => parseObject(document)).toThrow('ledger.yaml:\n  assumption A2 (assumptions[1]): unknown field "enforcedBy" (expected id, assumption, check)');
    const section = smallLedger();
    section.behaviours['dns'] = [];
    expect(() => parseObject(section)).toThrow('behaviours: unknown field "dns" (expected arm, managed-identity');
  });

  it('refuses a missing or empty source and a text over several lines, naming the entry and the field', () => {
    const missing = smallLedger();
    missing.behaviours['edge'] = [{ behaviour: 'x' }];
    expect(() => parseObject(missing)).toThrow('behaviours.edge[0]: missing field "source"');
    const empty = smallLedger();
    empty.behaviours['cdn'] = [
      { behaviour: 'x', source: 'D' },
      { behaviour: 'y', source: '' },
    ];
    expect(() => parseObject(empty)).toThrow('behaviours.cdn[1]: field "source" must be one line of text');
    const lines = smallLedger();
    lines.assumptions[0] = { id: 'A1', assumption: 'one\ntwo', check: 'PUT it' };
    expect(() => parseObject(lines)).toThrow('assumption A1 (assumptions[0]): field "assumption" must be one line of text');
    const notAnEntry = smallLedger();
    notAnEntry.assumptions[0] = 'A1' as unknown as object;
    expect(() => parseObject(notAnEntry)).toThrow('assumptions[0] must be object');
    const noSection = smallLedger();
    delete noSection.behaviours['edge'];
    expect(() => parseObject(noSection)).toThrow('behaviours: missing field "edge"');
  });

  it('refuses a duplicate, out-of-order or malformed id and an A<n> that is no assumption', () => {
    const duplicate = smallLedger();
    duplicate.assumptions.push({ id: 'A2', assumption: 'again', check: 'GET it' });
    expect(() => parseObject(duplicate)).toThrow('assumption A2 (assumptions[2]): field "id" must be unique and follow A2');
    const backwards = smallLedger();
    backwards.assumptions.reverse();
    expect(() => parseObject(backwards)).toThrow('assumption A1 (assumptions[1]): field "id" must be unique and follow A2');
    const malformed = smallLedger();
    malformed.assumptions[0] = { id: 'a1', assumption: 'first', check: 'PUT it' };
    expect(() => parseObject(malformed)).toThrow('assumption a1 (assumptions[0]): field "id" is "a1", expected A<n>');
    const dangling = smallLedger();
    dangling.behaviours['network'] = [{ behaviour: 'x', source: 'D; code A7' }];
    expect(() => parseObject(dangling)).toThrow('behaviours.network[0]: field "source" names A7, which is not an assumption of the ledger');
  });

  it('refuses text that is not YAML, naming the file', () => {
    expect(() => parseFidelityLedger('behaviours: [', 'ledger.yaml')).toThrow('ledger.yaml: not YAML');
    expect(FIDELITY_LEDGER_FILE).toMatch(/tools\/azure-emulator\/fidelity-ledger\.yaml$/);
  });
});
