// Renders every generated block of the repository's documents (doc-sections.ts): pnpm nx run scripts:docs
import { writeRenderedDocuments } from './doc-sections.js';

const written = await writeRenderedDocuments();
console.log(written.length === 0 ? 'every generated block is current' : `rewrote ${written.join(', ')}`);
