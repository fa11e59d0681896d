/**
 * Bundles the echo server (src/echo-server.ts) as the agents are bundled, for e2e/azure/echo/Dockerfile:
 *   tsx e2e/src/bundle-echo-server.ts <outfile>
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleEntry } from '@fleet-gateway/scripts';

const here = path.dirname(fileURLToPath(import.meta.url));
const [outfile, ...rest] = process.argv.slice(2);
if (outfile === undefined || rest.length > 0) {
  process.stderr.write('Usage: tsx e2e/src/bundle-echo-server.ts <outfile>\n');
  process.exit(2);
}
process.stdout.write(`${await bundleEntry(path.join(here, 'echo-server.ts'), path.resolve(outfile), path.join(here, '..', 'tsconfig.json'))}\n`);
