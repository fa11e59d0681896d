import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typeName, type ResourceKind } from './arm/kind.js';
import { createKindRegistry } from './kinds.js';
import { DEFAULT_SPEC_DIR } from './options.js';

interface SpecOperation {
  'x-ms-long-running-operation'?: boolean;
  parameters?: Array<{ in?: string; schema?: { $ref?: string } }>;
}

/** Every resource path of the vendored specs: its type chain (lower case) and its verbs. */
function specPaths(): Array<{ file: string; types: string; verbs: Record<string, SpecOperation> }> {
  const files = ['cdn/2024-02-01/afdx.json', 'cdn/2024-02-01/cdn.json', 'network/2025-05-01/loadBalancer.json', 'network/2025-05-01/privateLinkService.json'];
  return files.flatMap((file) => {
    const document = JSON.parse(readFileSync(join(DEFAULT_SPEC_DIR, file), 'utf8')) as { paths: Record<string, Record<string, SpecOperation>> };
    return Object.entries(document.paths)
      .filter(([path]) => path.includes('/resourceGroups/{resourceGroupName}/providers/') && /\{[^}]+\}$/.test(path))
      .map(([path, verbs]) => {
        const segments = (path.split('/providers/')[1] as string).split('/');
        const types = [segments[0], ...segments.slice(1).filter((segment) => !segment.startsWith('{'))].join('/').toLowerCase();
        return { file, types, verbs };
      });
  });
}

const bodyDefinition = (operation: SpecOperation | undefined): string | undefined =>
  operation?.parameters
    ?.find((parameter) => parameter.in === 'body')
    ?.schema?.$ref?.split('/')
    .pop();
const definitionName = (ref: string | null | undefined): string | undefined => (typeof ref === 'string' ? ref.split('#')[1] : undefined);

describe('resource kinds follow the official specs operation by operation', () => {
  const paths = specPaths();
  const kinds = createKindRegistry().all();
  const specified = kinds.filter((kind) => paths.some((path) => path.types === typeName(kind).toLowerCase()));

  it('covers every kind whose spec is vendored (WAF policies and public IPs are minimal stand-ins without a vendored spec)', () => {
    expect(kinds.filter((kind) => !specified.includes(kind)).map(typeName)).toEqual([
      'Microsoft.Network/publicIPAddresses',
      'Microsoft.Network/frontDoorWebApplicationFirewallPolicies',
    ]);
  });

  it.each(specified.map((kind) => [typeName(kind), kind] as [string, ResourceKind]))('%s: verbs, long-running flags and body schemas', (_name, kind) => {
    const path = paths.find((candidate) => candidate.types === typeName(kind).toLowerCase()) as ReturnType<typeof specPaths>[number];
    const { put, patch, delete: remove } = path.verbs;
    expect({
      put: put === undefined ? 'absent' : put['x-ms-long-running-operation'] === true ? 'lro' : 'sync',
      putBody: bodyDefinition(put),
      patch: patch === undefined ? 'absent' : patch['x-ms-long-running-operation'] === true ? 'lro' : 'sync',
      patchBody: bodyDefinition(patch),
      delete: remove === undefined ? 'absent' : remove['x-ms-long-running-operation'] === true ? 'lro' : 'sync',
    }).toEqual({
      put: kind.putSchema === undefined ? 'absent' : kind.lro.put ? 'lro' : 'sync',
      putBody: definitionName(kind.putSchema),
      patch: kind.patchSchema === undefined ? 'absent' : kind.lro.patch ? 'lro' : 'sync',
      patchBody: definitionName(kind.patchSchema),
      delete: !kind.deletable ? 'absent' : kind.lro.delete ? 'lro' : 'sync',
    });
  });
});
