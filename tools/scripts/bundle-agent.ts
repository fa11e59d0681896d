/**
 * Bundles one agent into a single ESM file that plain `node` runs (no tsx, no node_modules):
 *   tsx tools/scripts/bundle-agent.ts <app> [outfile]    ->  dist/apps/<app>/main.mjs (+ main.mjs.map), or outfile
 * The workspace libs resolve through the `paths` of tsconfig.base.json (esbuild reads them from the app's tsconfig).
 * Nothing is external: every dependency bundles (none is a native addon).
 */
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Some dependencies are CommonJS (winston, prom-client, parts of the Azure SDK): in an ESM bundle, esbuild's shim for
// their `require` of Node built-ins needs a module-scoped `require`, which CommonJS would have given them.
const REQUIRE_SHIM = "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);";

/** Bundles apps/<app>/src/main.ts into `outfile` (default dist/apps/<app>/main.mjs) and returns its path. */
export async function bundleAgent(app: string, outfile = path.join(root, 'dist', 'apps', app, 'main.mjs')): Promise<string> {
  const appDir = path.join(root, 'apps', app);
  const entry = path.join(appDir, 'src', 'main.ts');
  if (!existsSync(entry)) throw new Error(`apps/${app}/src/main.ts does not exist; expected an agent under apps/`);
  return bundleEntry(entry, outfile, path.join(appDir, 'tsconfig.json'));
}

/** Bundles any Node entry point of the workspace the way the agents are bundled (see bundleAgent). */
export async function bundleEntry(entry: string, outfile: string, tsconfig: string): Promise<string> {
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node26',
    tsconfig,
    sourcemap: true,
    banner: { js: REQUIRE_SHIM },
    logLevel: 'warning',
  });
  return outfile;
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [app, outfile, ...rest] = process.argv.slice(2);
  if (app === undefined || rest.length > 0) {
    process.stderr.write('Usage: tsx tools/scripts/bundle-agent.ts <app> [outfile]   (an app under apps/, e.g. hub-gateway)\n');
    process.exit(2);
  }
  process.stdout.write(`${path.relative(root, await bundleAgent(app, outfile === undefined ? undefined : path.resolve(outfile)))}\n`);
}
