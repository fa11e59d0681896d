import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { renderAnnotationTable, renderErrorReasonTable } from '@fleet-gateway/annotations';
import { readFidelityLedger, renderAzureRolesTable, renderLedgerTables } from '@fleet-gateway/azure-emulator';
import { renderCrdExtensionTable } from '@fleet-gateway/control-plane';
import { renderSupportedFeatures } from '@fleet-gateway/gateway-controllers';
import { renderVerdictTable } from '@fleet-gateway/model';
import { spliceGeneratedSection } from './generated-section.js';

const run = promisify(execFile);
export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

/** A block of a document rendered from the code or data it describes. */
export interface DocSection {
  /** The document, from the repository's root. */
  readonly file: string;
  /** The name in its `<!-- BEGIN GENERATED: name -->` markers. */
  readonly name: string;
  readonly render: () => string | Promise<string>;
}

const fenced = (text: string): string => `\`\`\`\n${text.endsWith('\n') ? text : `${text}\n`}\`\`\``;

/** What an agent prints for --help, from its own entry point (an app is run, never imported). */
async function agentUsage(app: string): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'apps', app, 'src/main.ts'), '--help'], { cwd: REPO_ROOT });
  return fenced(stdout);
}

/** Every generated block of the repository's documents. */
export const DOC_SECTIONS: readonly DocSection[] = [
  { file: 'libs/annotations/README.md', name: 'annotation-table', render: renderAnnotationTable },
  { file: 'libs/annotations/README.md', name: 'error-reasons', render: renderErrorReasonTable },
  { file: 'docs/guide.md', name: 'annotation-table', render: renderAnnotationTable },
  { file: 'libs/model/README.md', name: 'verdict-table', render: renderVerdictTable },
  { file: 'docs/operations.md', name: 'hub-usage', render: () => agentUsage('hub-gateway') },
  { file: 'docs/operations.md', name: 'member-usage', render: () => agentUsage('member-discovery') },
  { file: 'docs/operations.md', name: 'supported-features', render: () => fenced(renderSupportedFeatures()) },
  { file: 'docs/install.md', name: 'azure-roles', render: () => renderAzureRolesTable('../') },
  { file: 'docs/architecture.md', name: 'fleet-crd-extensions', render: renderCrdExtensionTable },
  // The emulator's fidelity ledger, one table per section, from tools/azure-emulator/fidelity-ledger.yaml (read once).
  ...[...renderLedgerTables(readFidelityLedger())].map(([name, table]) => ({ file: 'docs/emulator-fidelity.md', name, render: () => table })),
];

/** Each document as its generated blocks say it should read (the documents are read, never written). */
export async function renderedDocuments(sections: readonly DocSection[] = DOC_SECTIONS): Promise<Map<string, { current: string; rendered: string }>> {
  const documents = new Map<string, { current: string; rendered: string }>();
  for (const section of sections) {
    let document = documents.get(section.file);
    if (!document) {
      const text = await readFile(path.join(REPO_ROOT, section.file), 'utf8');
      document = { current: text, rendered: text };
    }
    documents.set(section.file, { current: document.current, rendered: spliceGeneratedSection(document.rendered, section.name, await section.render()) });
  }
  return documents;
}

/** Rewrites every document whose generated blocks are stale; returns the files written. */
export async function writeRenderedDocuments(sections: readonly DocSection[] = DOC_SECTIONS): Promise<string[]> {
  const written: string[] = [];
  for (const [file, { current, rendered }] of await renderedDocuments(sections)) {
    if (current === rendered) continue;
    await writeFile(path.join(REPO_ROOT, file), rendered);
    written.push(file);
  }
  return written;
}
