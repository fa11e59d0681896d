import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEndpoint, createOrigin, createOriginGroup, createProfile, createRoute } from '../testing/afd-fixtures.js';
import { restErrorOf } from '../testing/errors.js';
import { FAST_POLLING, RESOURCE_GROUP, cdnId, startTestBed, type TestBed } from '../testing/sdk.js';

let bed: TestBed;
beforeAll(async () => {
  bed = await startTestBed({
    limits: {
      afd: { endpointsPerProfile: { standard: 1, premium: 2 }, originsPerOriginGroup: { standard: 2, premium: 2 }, rulesPerRoute: { standard: 2, premium: 2 } },
    },
  });
});
afterAll(() => bed.emulator.stop());

describe('AFD limits per SKU', () => {
  it('enforces endpoints per profile by SKU', async () => {
    await createProfile(bed, 'std', 'Standard_AzureFrontDoor');
    await createEndpoint(bed, 'std', 'e1');
    const error = await restErrorOf(createEndpoint(bed, 'std', 'e2'));
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("endpoints per profile cannot exceed 1 for SKU 'Standard_AzureFrontDoor'");
    await createProfile(bed, 'prem');
    await createEndpoint(bed, 'prem', 'e1');
    await createEndpoint(bed, 'prem', 'e2');
    expect((await restErrorOf(createEndpoint(bed, 'prem', 'e3'))).message).toContain('cannot exceed 2');
  });

  it('enforces origins per origin group, and an update of an existing origin is not a new one', async () => {
    await createProfile(bed, 'origins');
    await createOriginGroup(bed, 'origins', 'og');
    await createOrigin(bed, 'origins', 'og', { name: 'a', hostName: 'a.example' });
    await createOrigin(bed, 'origins', 'og', { name: 'b', hostName: 'b.example' });
    expect((await createOrigin(bed, 'origins', 'og', { name: 'b', hostName: 'b2.example' })).hostName).toBe('b2.example');
    const error = await restErrorOf(createOrigin(bed, 'origins', 'og', { name: 'c', hostName: 'c.example' }));
    expect(error.message).toContain('origins per origin group cannot exceed 2');
  });

  it('enforces rules per route across the rule sets a route uses, on the route and on a new rule', async () => {
    await createProfile(bed, 'rules');
    await createEndpoint(bed, 'rules', 'e');
    await createOriginGroup(bed, 'rules', 'og');
    await createOrigin(bed, 'rules', 'og', { name: 'a', hostName: 'a.example' });
    const addRule = (ruleSet: string, name: string) =>
      bed.cdn.rules.beginCreateAndWait(
        RESOURCE_GROUP,
        'rules',
        ruleSet,
        name,
        {
          order: 1,
          actions: [
            {
              name: 'ModifyResponseHeader',
              parameters: { typeName: 'DeliveryRuleHeaderActionParameters', headerAction: 'Append', headerName: 'x-a', value: '1' },
            },
          ],
        },
        FAST_POLLING,
      );
    for (const ruleSet of ['rs1', 'rs2', 'rs3']) {
      await bed.cdn.ruleSets.create(RESOURCE_GROUP, 'rules', ruleSet);
      await addRule(ruleSet, 'only');
    }
    const ref = (ruleSet: string) => ({ id: cdnId('profiles', 'rules', 'ruleSets', ruleSet) });
    await createRoute(bed, 'rules', 'e', 'two', 'og', { ruleSets: [ref('rs1'), ref('rs2')], patternsToMatch: ['/two/*'] });
    const tooMany = await restErrorOf(
      createRoute(bed, 'rules', 'e', 'three', 'og', { ruleSets: [ref('rs1'), ref('rs2'), ref('rs3')], patternsToMatch: ['/three/*'] }),
    );
    expect([tooMany.statusCode, tooMany.message]).toEqual([400, "Limit reached: 'properties.ruleSets' hold 3 rules together; a route can have at most 2."]);
    const oneMore = await restErrorOf(addRule('rs2', 'second'));
    expect(oneMore.message).toBe("Limit reached: route 'two' would have 3 rules across its rule sets; the maximum is 2.");
    expect((await addRule('rs3', 'second')).name).toBe('second');
  });

  it('refuses a rule over the rules engine limits and an origin whose host name is not a domain name or address, with ARM error bodies', async () => {
    await createProfile(bed, 'values');
    await bed.cdn.ruleSets.create(RESOURCE_GROUP, 'values', 'rs');
    const header = {
      name: 'RequestHeader' as const,
      parameters: { typeName: 'DeliveryRuleRequestHeaderConditionParameters' as const, operator: 'Equal' as const, selector: 'x-a', matchValues: ['v'] },
    };
    const modify = (value: string) => ({
      name: 'ModifyResponseHeader' as const,
      parameters: { typeName: 'DeliveryRuleHeaderActionParameters' as const, headerAction: 'Overwrite' as const, headerName: 'x-a', value },
    });
    const addRule = (name: string, conditions: (typeof header)[], actions: ReturnType<typeof modify>[]) =>
      bed.cdn.rules.beginCreateAndWait(RESOURCE_GROUP, 'values', 'rs', name, { order: 1, conditions, actions }, FAST_POLLING);
    const conditions = await restErrorOf(addRule('conditions', Array(11).fill(header), [modify('v')]));
    expect([conditions.statusCode, conditions.code, conditions.message]).toEqual([
      400,
      'BadRequest',
      "'properties.conditions' has 11 conditions; a rule can have at most 10.",
    ]);
    expect((await restErrorOf(addRule('actions', [header], Array(6).fill(modify('v'))))).message).toBe(
      "'properties.actions' has 6 actions; a rule can have at most 5.",
    );
    const longCondition = { ...header, parameters: { ...header.parameters, matchValues: ['c'.repeat(257)] } };
    expect((await restErrorOf(addRule('condition-value', [longCondition], [modify('v')]))).message).toMatch(
      /request header condition value can have at most 256/,
    );
    expect((await restErrorOf(addRule('action-value', [header], [modify('v'.repeat(641))]))).message).toMatch(/header action value can have at most 640/);
    expect((await addRule('fits', Array(10).fill(header), Array(5).fill(modify('v'.repeat(640))))).name).toBe('fits');

    await createOriginGroup(bed, 'values', 'og');
    for (const hostName of ['', 'not a host', 'a..example']) {
      const error = await restErrorOf(createOrigin(bed, 'values', 'og', { name: 'bad', hostName }));
      expect([error.statusCode, error.code, error.message]).toEqual([
        400,
        'BadRequest',
        `HostName ${JSON.stringify(hostName)} is invalid. It must be a valid domain name, IP version 4, or IP version 6.`,
      ]);
    }
    expect((await createOrigin(bed, 'values', 'og', { name: 'v6', hostName: '2001:db8::1' })).hostName).toBe('2001:db8::1');
  });
});
