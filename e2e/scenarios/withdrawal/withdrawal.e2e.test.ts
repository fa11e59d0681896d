import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath } from '@fleet-gateway/controller';
import { requestThroughEdge } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { apply, applyOnMember, read, until } from '../../src/kube-helpers.js';
import { answersThroughEdge, changePropagated, scenario, servingGateway } from '../../src/scenario.js';
import { E2E_MEMBERS } from '../../src/system-under-test.js';

/** The sustained window after a withdrawal has propagated: at least this long and this many requests. */
const WINDOW = { ms: 30_000, requests: 300 };
const exportPath = objectPath(RESOURCES.ServiceExport, 'shop', 'e2e-withdraw');

scenario('withdrawal, verified over a sustained interval', ['front-door', 'emulator'], (system) => {
  let hostname = '';

  it('set-up: both members serve /shop and the rest', async () => {
    for (const member of E2E_MEMBERS) await applyOnMember(system, member, new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    hostname = await servingGateway(system, 'e2e-withdraw', 'withdraw', { members: E2E_MEMBERS, path: '/shop' });
    await changePropagated(system);
    const seen = new Set((await answersThroughEdge(system, hostname, ['/shop'], { requests: 40 })).map((a) => a.cluster));
    expect([...seen].sort()).toEqual(['member-1', 'member-2']);
  });

  it(`a withdrawn cluster never answers /shop during ${WINDOW.ms / 1000} s and ${WINDOW.requests}+ requests once the withdrawal has propagated`, async () => {
    await system.members['member-2'].delete(exportPath);
    await until(
      () => read(system.hub, objectPath(RESOURCES.InternalServiceExport, 'e2e-withdraw-shop', 'fleet-member-member-2')),
      (e) => e === undefined,
    );
    await changePropagated(system);
    const answers = await answersThroughEdge(system, hostname, ['/shop'], WINDOW);
    expect(answers.length).toBeGreaterThanOrEqual(WINDOW.requests);
    expect(answers.filter((a) => a.cluster === 'member-2')).toEqual([]);
    expect(answers.every((a) => a.status === 200 && a.cluster === 'member-1')).toBe(true);
  });

  it('a rule whose backends are all gone answers 5xx on every request, reaching no backend, while the other rule keeps serving', async () => {
    await system.members['member-1'].delete(exportPath);
    await until(
      () => read(system.hub, objectPath(RESOURCES.InternalServiceExport, 'e2e-withdraw-shop', 'fleet-member-member-1')),
      (e) => e === undefined,
    );
    await changePropagated(system);
    const answers = await answersThroughEdge(system, hostname, ['/shop'], WINDOW);
    expect(answers.length).toBeGreaterThanOrEqual(WINDOW.requests);
    expect(answers.filter((a) => a.cluster !== undefined)).toEqual([]);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([503]));
    const home = await requestThroughEdge(system.azure.edgeUrl, hostname, '/');
    expect(home.status).toBe(200);
  });
});
