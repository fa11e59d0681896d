import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fleetCrds, gatewayApiCrds } from '@fleet-gateway/control-plane';
import { renderApiTypes } from '@fleet-gateway/scripts';
import { RESOURCES, apiVersionOf } from './groups.js';

describe('generated API types', () => {
  it('match what the CRD schemas generate today', async () => {
    const files = await renderApiTypes();
    expect(Object.keys(files)).toHaveLength(7);
    for (const [name, text] of Object.entries(files)) {
      const committed = await readFile(path.join(import.meta.dirname, 'generated', name), 'utf8');
      expect(committed, `${name} is stale: run pnpm tsx tools/scripts/generate-api-types.ts`).toBe(text);
    }
  });

  it('name every resource by a group, version and plural that a CRD serves', async () => {
    const crds = [...(await gatewayApiCrds('standard')), ...(await fleetCrds())];
    for (const resource of Object.values(RESOURCES)) {
      const crd = crds.find((c) => c.spec.group === resource.group && c.spec.names.kind === resource.kind);
      expect(crd, resource.kind).toBeDefined();
      expect(crd?.spec.names.plural).toBe(resource.plural);
      expect(crd?.spec.versions.some((v) => v.name === resource.version && v.served)).toBe(true);
      expect(crd?.spec.scope === 'Namespaced').toBe(resource.namespaced);
      expect(apiVersionOf(resource)).toBe(`${resource.group}/${resource.version}`);
    }
  });
});
