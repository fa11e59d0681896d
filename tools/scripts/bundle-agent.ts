/**
 * Bundles one agent into a single ESM file that plain `node` runs (no tsx, no node_modules):
 *   tsx tools/scripts/bundle-agent.ts <app> [outfile]    ->  dist/apps/<app>/main.mjs (+ main.mjs.map), or outfile
 * The workspace libs resolve through the `paths` of tsconfig.base.json (esbuild reads them from the app's tsconfig).
 * Nothing is external: every dependency bundles (none is a native addon).
 */
import { build, type Plugin } from 'esbuild';
import { existsSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// Some dependencies are CommonJS (winston, prom-client, parts of the Azure SDK): in an ESM bundle, esbuild's shim for
// their `require` of Node built-ins needs a module-scoped `require`, which CommonJS would have given them.
const REQUIRE_SHIM = "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);";

/**
 * Node's ESM loader wraps a built-in imported with `import` in a facade that reads every export, getters included:
 * `node:http`'s lazy `WebSocket`/`EventSource` getters then load Node's internal undici (+12 MiB resident, ~45 ms at
 * start). Serving each built-in from `process.getBuiltinModule` gives the same module object without the facade;
 * the named exports are its data properties, read once (an accessor imported by name fails the build, not the run).
 */
const builtinsWithoutFacade: Plugin = {
  name: 'builtins-without-esm-facade',
  setup(bundler) {
    bundler.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, ({ path: specifier, kind }) => {
      if ((kind !== 'import-statement' && kind !== 'dynamic-import') || !isBuiltin(specifier)) return undefined;
      return { path: specifier.replace(/^node:/, ''), namespace: 'node-builtin' };
    });
    bundler.onLoad({ filter: /.*/, namespace: 'node-builtin' }, ({ path: name }) => {
      const builtin = process.getBuiltinModule(`node:${name}`) as Record<string, unknown>;
      const dataExports = Object.keys(builtin).filter(
        (key) => /^[A-Za-z_$][\w$]*$/.test(key) && key !== 'default' && 'value' in Object.getOwnPropertyDescriptor(builtin, key)!,
      );
      const contents = [
        `const builtin = process.getBuiltinModule('node:${name}');`,
        'export default builtin;',
        `export const { ${dataExports.join(', ')} } = builtin;`,
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/**
 * `@kubernetes/client-node` is ESM whose modules only declare (their top-level statements are imports, exports,
 * declarations and static class fields; `polyfill.js` fills a global `File`, which Node 26 has), but its package.json
 * does not say `"sideEffects": false`, so esbuild keeps every generated API and model although the agents use only
 * `KubeConfig`. Saying it here lets esbuild drop what nothing imports (the bundle ~1 MB smaller, ~11 MiB less resident).
 */
const SIDE_EFFECT_FREE_PACKAGE = /[\\/]node_modules[\\/]@kubernetes[\\/]client-node[\\/]/;
const sideEffectFreeClientNode: Plugin = {
  name: 'side-effect-free-client-node',
  setup(bundler) {
    bundler.onResolve({ filter: /^(\.|@kubernetes\/client-node)/ }, async ({ path: specifier, importer, kind, resolveDir, pluginData }) => {
      if (pluginData === sideEffectFreeClientNode) return undefined;
      if (specifier.startsWith('.')) {
        // Its own relative imports name files (ESM), so they resolve here without a round trip to esbuild per import.
        const file = path.resolve(resolveDir, specifier);
        return SIDE_EFFECT_FREE_PACKAGE.test(importer) && existsSync(file) ? { path: file, sideEffects: false } : undefined;
      }
      const resolved = await bundler.resolve(specifier, { importer, kind, resolveDir, pluginData: sideEffectFreeClientNode });
      return resolved.errors.length === 0 ? { ...resolved, sideEffects: false } : undefined;
    });
  },
};

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
    // V8 keeps a module's whole source text in the heap: without comments and whitespace the hub's bundle is 3.9 MB,
    // not 5.8 MB, and idles 3.7 MiB lower. Names stay, so a stack trace still reads; the source map maps positions back.
    minifyWhitespace: true,
    minifySyntax: true,
    banner: { js: REQUIRE_SHIM },
    plugins: [builtinsWithoutFacade, sideEffectFreeClientNode],
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
