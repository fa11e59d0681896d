import { fleetCrds, gatewayApiCrds, NEWEST_GATEWAY_API_VERSION } from '@fleet-gateway/control-plane';
import { describe, expect, it } from 'vitest';
import { RESOURCES, apiVersionOf } from './groups.js';

describe('the API resources', () => {
  it('name every resource by a group, version and plural that a CRD serves', async () => {
    const crds = [...(await gatewayApiCrds('standard', NEWEST_GATEWAY_API_VERSION)), ...(await fleetCrds())];
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
