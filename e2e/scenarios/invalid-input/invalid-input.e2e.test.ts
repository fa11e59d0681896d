import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath, type Condition } from '@fleet-gateway/controller';
import { requestThroughEdge } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { apply, applyOnMember, conditionOf, read, until } from '../../src/kube-helpers.js';
import { armWrites, scenario, servingGateway, settledWrites } from '../../src/scenario.js';

type Annotated = { metadata: { annotations?: Record<string, string> }; status?: { conditions?: Condition[]; addresses?: { type: string; value: string }[] } };
type RouteParent = { controllerName: string; conditions?: Condition[] };
type Route = { status?: { parents?: RouteParent[] } };
const resolvedRefs = (parent: RouteParent) => parent.conditions?.find((c) => c.type === 'ResolvedRefs');

scenario('invalid input', ['front-door', 'emulator'], (system) => {
  it('a misspelled tier gives a condition naming the key, the value and what is expected, and no Azure write', async () => {
    const before = await settledWrites(system);
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    const gateway = await until(
      () => read<Annotated>(system.hub, objectPath(RESOURCES.Gateway, 'typo', 'e2e-invalid')),
      (g) => conditionOf(g, 'Accepted')?.status === 'False',
    );
    const accepted = conditionOf(gateway, 'Accepted');
    expect(accepted).toMatchObject({ status: 'False', reason: 'Invalid' });
    expect(accepted?.message).toContain('networking.fleet.azure.com/afd-sku');
    expect(accepted?.message).toContain('"Premium"');
    expect(accepted?.message).toContain('Premium_AzureFrontDoor');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await armWrites(system)).toBe(before);
  });

  it('an invalid annotation on a serving ServiceImport holds its last programmed configuration: the edge keeps answering, nothing is written', async () => {
    await applyOnMember(system, 'member-1', new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('serving.yaml', import.meta.url));
    const gatewayPath = objectPath(RESOURCES.Gateway, 'held', 'e2e-invalid');
    const hostname = await servingGateway(system, 'e2e-invalid', 'held', { members: ['member-1'] });
    const before = await settledWrites(system);
    await system.hub.patch(
      objectPath(RESOURCES.ServiceImport, 'held', 'e2e-invalid'),
      { metadata: { annotations: { 'networking.fleet.azure.com/afd-health-probe-path': 'healthz' } } },
      'merge',
    );
    const route = await until(
      () => read<Route>(system.hub, objectPath(RESOURCES.HTTPRoute, 'held', 'e2e-invalid')),
      (r) => r?.status?.parents?.some((p) => resolvedRefs(p)?.reason === 'InvalidBackendAnnotations') ?? false,
    );
    const resolved = route?.status?.parents?.map(resolvedRefs).find((c) => c?.reason === 'InvalidBackendAnnotations');
    expect(resolved?.message).toContain('networking.fleet.azure.com/afd-health-probe-path');
    expect(resolved?.message).toContain('serving the last programmed configuration');
    expect(conditionOf(await read<Annotated>(system.hub, gatewayPath), 'Accepted')?.status).toBe('True');
    for (let i = 0; i < 20; i++) expect((await requestThroughEdge(system.azure.edgeUrl, hostname)).status).toBe(200);
    expect(await armWrites(system)).toBe(before);
  });
});
