import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import type { SecurityPolicy, SecurityPolicyWebApplicationFirewallParameters } from '@azure/arm-cdn';
import { expect, it } from 'vitest';
import { apply, applyOnMember, conditionOf, read, until } from '../../src/kube-helpers.js';
import { answersThroughEdge, armClients, armWrites, changePropagated, frontDoorOf, scenario, servingGateway, settledWrites } from '../../src/scenario.js';
import { E2E_MEMBERS, type SystemUnderTest } from '../../src/system-under-test.js';

const WAF_KEY = 'networking.fleet.azure.com/afd-waf-policy-id';
const NAMESPACE = 'e2e-waf';
const gatewayPath = objectPath(RESOURCES.Gateway, 'guarded', NAMESPACE);
/** The resource group that holds the WAF policy: a team's own, not the hub's AFD group. */
const WAF_GROUP = 'e2e-waf-policies';

type Gateway = { status?: { conditions?: Condition[] } };

/** Creates a Front Door WAF policy the way it exists on Azure: outside the hub, through the emulator's admin API. */
async function createWafPolicy(system: SystemUnderTest, name: string): Promise<string> {
  const response = await fetch(`${system.azure.adminUrl}/waf-policies`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ subscriptionId: system.azure.subscriptionId, resourceGroup: WAF_GROUP, name, sku: 'Standard_AzureFrontDoor' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

async function securityPolicies(system: SystemUnderTest, profile: string): Promise<SecurityPolicy[]> {
  const policies: SecurityPolicy[] = [];
  for await (const policy of armClients(system).cdn.securityPolicies.listByProfile(system.azure.afdResourceGroup, profile)) policies.push(policy);
  return policies;
}

async function endpointIds(system: SystemUnderTest, profile: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const endpoint of armClients(system).cdn.afdEndpoints.listByProfile(system.azure.afdResourceGroup, profile)) ids.push(endpoint.id ?? '');
  return ids;
}

const setWafAnnotation = (system: SystemUnderTest, value: string | null) =>
  system.hub.patch(gatewayPath, { metadata: { annotations: { [WAF_KEY]: value } } }, 'merge');

/** Every request answered 200 by a member, and every member answered (the attached WAF enforces nothing at this edge). */
async function expectServedByEveryMember(system: SystemUnderTest, hostname: string): Promise<void> {
  const answers = await answersThroughEdge(system, hostname, ['/'], { requests: 40 });
  expect(answers.filter((a) => a.status !== 200 || a.cluster === undefined)).toEqual([]);
  expect([...new Set(answers.map((a) => a.cluster))].sort()).toEqual([...E2E_MEMBERS]);
}

scenario('WAF policy attach, detach and a missing policy', ['front-door', 'emulator'], (system) => {
  let hostname = '';
  let profile = '';
  let wafPolicyId = '';

  it('set-up: a Standard Gateway without WAF serves from both members', async () => {
    wafPolicyId = await createWafPolicy(system, 'e2eGuard');
    for (const member of E2E_MEMBERS) await applyOnMember(system, member, new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    hostname = await servingGateway(system, NAMESPACE, 'guarded', { members: E2E_MEMBERS });
    profile = (await frontDoorOf(system, NAMESPACE, 'guarded'))?.profile.name ?? '';
    expect(await securityPolicies(system, profile)).toEqual([]);
  });

  it('attaching a policy creates a security policy associating the endpoint domain with it; the endpoint keeps serving', async () => {
    await setWafAnnotation(system, wafPolicyId);
    // Created through a long-running operation: listed as Creating first.
    const [policy, ...others] = await until(
      () => securityPolicies(system, profile),
      (policies) => policies.length > 0 && policies.every((p) => p.provisioningState === 'Succeeded'),
    );
    expect(others).toEqual([]);
    const parameters = policy?.parameters as SecurityPolicyWebApplicationFirewallParameters;
    expect(parameters.type).toBe('WebApplicationFirewall');
    expect(parameters.wafPolicy?.id?.toLowerCase()).toBe(wafPolicyId.toLowerCase());
    const endpoints = await endpointIds(system, profile);
    expect(endpoints).toHaveLength(1);
    expect(parameters.associations?.flatMap((a) => (a.domains ?? []).map((d) => d.id?.toLowerCase()))).toEqual(endpoints.map((id) => id.toLowerCase()));
    expect(parameters.associations?.flatMap((a) => a.patternsToMatch)).toEqual(['/*']);
    // The WAF policy itself, read through ARM, is linked to that security policy and was not changed.
    const waf = await armClients(system).frontDoor.policies.get(WAF_GROUP, 'e2eGuard');
    expect(waf.securityPolicyLinks?.map((l) => l.id?.toLowerCase())).toEqual([policy?.id?.toLowerCase()]);
    expect(waf.sku?.name).toBe('Standard_AzureFrontDoor');
    const gateway = await until(
      () => read<Gateway>(system.hub, gatewayPath),
      (g) => conditionOf(g, 'Programmed')?.status === 'True',
    );
    expect(conditionOf(gateway, 'Programmed')?.reason).toBe('Programmed');
    await changePropagated(system);
    await expectServedByEveryMember(system, hostname);
  });

  it('detaching (removing the annotation) deletes the security policy, leaves the WAF policy, and the endpoint keeps serving', async () => {
    await setWafAnnotation(system, null);
    await until(
      () => securityPolicies(system, profile),
      (policies) => policies.length === 0,
    );
    const waf = await armClients(system).frontDoor.policies.get(WAF_GROUP, 'e2eGuard');
    expect(waf.securityPolicyLinks ?? []).toEqual([]);
    expect(conditionOf(await read<Gateway>(system.hub, gatewayPath), 'Programmed')?.status).toBe('True');
    await changePropagated(system);
    await expectServedByEveryMember(system, hostname);
  });

  it('a policy id that does not exist gives a condition naming the annotation, the value and what is expected; no ARM write; the last programmed configuration keeps serving', async () => {
    const missing = `/subscriptions/${system.azure.subscriptionId}/resourceGroups/${WAF_GROUP}/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/e2eNoSuchPolicy`;
    const before = await settledWrites(system);
    await setWafAnnotation(system, missing);
    const gateway = await until(
      () => read<Gateway>(system.hub, gatewayPath),
      (g) => conditionOf(g, 'Programmed')?.reason === 'WafPolicyNotFound',
    );
    const programmed = conditionOf(gateway, 'Programmed');
    expect(programmed?.status).toBe('False');
    expect(programmed?.message).toContain(`annotation "${WAF_KEY}"`);
    expect(programmed?.message).toContain(`"${missing}"`);
    expect(programmed?.message).toContain('expected the id of an existing Front Door WAF policy');
    expect(programmed?.message).toContain('nothing was changed');
    // The id is well formed: the Gateway stays Accepted (one annotation in error does not un-accept it).
    expect(conditionOf(gateway, 'Accepted')?.status).toBe('True');
    // Give a retry the time to happen: still nothing written, no security policy.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await armWrites(system)).toBe(before);
    expect(await securityPolicies(system, profile)).toEqual([]);
    await expectServedByEveryMember(system, hostname);
  });

  it('naming an existing policy again programs its association', async () => {
    await setWafAnnotation(system, wafPolicyId);
    await until(
      () => read<Gateway>(system.hub, gatewayPath),
      (g) => conditionOf(g, 'Programmed')?.status === 'True',
    );
    const policies = await until(
      () => securityPolicies(system, profile),
      (found) => found.length === 1 && found[0]?.provisioningState === 'Succeeded',
    );
    expect((policies[0]?.parameters as SecurityPolicyWebApplicationFirewallParameters).wafPolicy?.id?.toLowerCase()).toBe(wafPolicyId.toLowerCase());
  });
});
