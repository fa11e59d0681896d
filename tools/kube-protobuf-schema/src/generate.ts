/**
 * The protobuf schema of built-in kinds that libs/controller decodes with, written by ../go from the Go types of the
 * k8s.io/api our kube-apiserver is built from.
 *   pnpm nx run kube-protobuf-schema:generate     (writes libs/controller/src/kube/protobuf/built-in-schema.generated.ts)
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const here = path.dirname(fileURLToPath(import.meta.url));
export const generatedSchemaPath = path.resolve(here, '../../../libs/controller/src/kube/protobuf/built-in-schema.generated.ts');

/** What the generator writes now. */
export async function generateSchema(): Promise<string> {
  const { stdout } = await promisify(execFile)('go', ['run', '.'], {
    cwd: path.resolve(here, '../go'),
    env: { ...process.env, CGO_ENABLED: '0' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

if (process.argv.includes('--write')) {
  await writeFile(generatedSchemaPath, await generateSchema());
  console.log(`wrote ${path.relative(process.cwd(), generatedSchemaPath)}`);
}
