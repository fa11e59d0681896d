import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSchemaPath, generateSchema } from './generate.js';

describe('the built-in protobuf schema', () => {
  it('is what the generator writes from the pinned k8s.io/api, so nobody edited it and no upgrade skipped it', async () => {
    const committed = await readFile(generatedSchemaPath, 'utf8');
    expect(await generateSchema()).toBe(committed);
    expect(committed).toContain('"v1/Service": "core.v1.Service"');
  });

  it('comes from the k8s.io/api and k8s.io/apimachinery versions our kube-apiserver is built from', async () => {
    const versionOf = (goMod: string, module: string) =>
      new RegExp(`^\\s*${module.replace('.', '\\.')}(?: => ${module.replace('.', '\\.')})? (v\\S+)`, 'm').exec(goMod)?.[1];
    const ours = await readFile(path.resolve(import.meta.dirname, '../go/go.mod'), 'utf8');
    const controlPlane = await readFile(path.resolve(import.meta.dirname, '../../control-plane/go/go.mod'), 'utf8');
    for (const module of ['k8s.io/api', 'k8s.io/apimachinery']) {
      expect(versionOf(ours, module), module).toMatch(/^v\d/);
      expect(versionOf(ours, module), module).toBe(versionOf(controlPlane, module));
    }
  });
});
