import { describe, expect, it } from 'vitest';
import { profileName } from '../plan/afd-names.js';
import { observeFrontDoor } from './observe.js';
import { planFrontDoor } from '../plan/plan-front-door.js';
import { buildGateway, largeGateway } from '../testing/gateway-builder.js';
import { HUB_IDENTITY, readsCounted, reconcile, TEST_SCOPE, useHarness, type Harness } from '../testing/emulator-harness.js';

/** The README's formula: the profile, then every list (at least one page each, `pageSize` items a page). */
function readsFormula(
  pageSize: number,
  sizes: {
    endpoints: number;
    customDomains: number;
    routesPerEndpoint: number[];
    originsPerGroup: number[];
    rulesPerRuleSet: number[];
    securityPolicies: number;
  },
): number {
  const pages = (items: number) => Math.max(1, Math.ceil(items / pageSize));
  const profileLists = [sizes.endpoints, sizes.customDomains, sizes.originsPerGroup.length, sizes.rulesPerRuleSet.length, sizes.securityPolicies];
  const childLists = [...sizes.routesPerEndpoint, ...sizes.originsPerGroup, ...sizes.rulesPerRuleSet];
  return 1 + [...profileLists, ...childLists].reduce((sum, n) => sum + pages(n), 0);
}

const model = largeGateway(3, 3);
const owner = { hubIdentity: HUB_IDENTITY, gateway: model.gateway };
const observe = (h: Harness) => observeFrontDoor(h.clients.cdn, TEST_SCOPE, profileName(model.gateway), owner);
const sizes = { endpoints: 1, customDomains: 0, routesPerEndpoint: [3], originsPerGroup: [3, 3, 3], rulesPerRuleSet: [], securityPolicies: 0 };

describe('observe reads the graph with the fewest reads, and counts them', () => {
  describe('one page per list (ARM pages hold 100 items)', () => {
    const h = useHarness();

    it('1 read when the profile does not exist', async () => {
      const observed = await observe(h());
      expect(observed.reads).toBe(1);
      expect(readsCounted(h().emulator)).toBe(1);
    });

    it('6 + E + G + S reads for E owned endpoints, G origin groups, S rule sets; the reconcile report counts them', async () => {
      await reconcile(h(), model);
      h().emulator.admin.resetCounters();
      const observed = await observe(h());
      expect(observed.reads).toBe(6 + 1 + 3 + 0);
      expect(observed.reads).toBe(readsFormula(100, sizes));
      expect(readsCounted(h().emulator)).toBe(observed.reads);

      h().emulator.admin.resetCounters();
      const steady = await reconcile(h(), model);
      expect(steady.writes).toBe(0);
      expect(steady.reads).toBe(observed.reads);
      expect(readsCounted(h().emulator)).toBe(steady.reads);
    });

    it('the report counts every read of a reconcile: observe, the WAF policy, and no read after writes ARM answered whole', async () => {
      const wafPolicyId = h().emulator.admin.createWafPolicy({
        subscriptionId: TEST_SCOPE.subscriptionId,
        resourceGroup: 'waf',
        name: 'edgePolicy',
        sku: 'Premium_AzureFrontDoor',
      });
      const withWaf = buildGateway({
        wafPolicyId,
        backends: [{ name: 'web', clusters: [{ name: 'member-1' }] }],
        routes: [{ name: 'r', rules: [{ backends: [{ name: 'web' }] }] }],
      });
      const cold = await reconcile(h(), withWaf);
      expect(cold.failures).toEqual([]);
      expect(cold.reads).toBe(readsCounted(h().emulator));
      // The profile's absence and the WAF policy: every operation ended within its request here, so none is read.
      expect(cold.reads).toBe(1 + 1);
      h().emulator.admin.resetCounters();
      const steady = await reconcile(h(), withWaf);
      const graph = planFrontDoor(withWaf, { hubIdentity: HUB_IDENTITY }).graph;
      expect(steady.reads).toBe(6 + 1 + graph.originGroups.length + graph.ruleSets.length + 1);
      expect(readsCounted(h().emulator)).toBe(steady.reads);
    });
  });

  describe('lists longer than a page', () => {
    const h = useHarness({ emulator: { pageSize: 2 } });

    it('take one more read per page, as the formula says', async () => {
      await reconcile(h(), model);
      h().emulator.admin.resetCounters();
      const observed = await observe(h());
      expect(observed.reads).toBe(readsFormula(2, sizes));
      expect(observed.reads).toBe(15);
      expect(readsCounted(h().emulator)).toBe(15);
      expect(observed.origins).toHaveLength(9);
      expect(observed.routes).toHaveLength(3);
    });
  });
});
