import { RESOURCES } from '@fleet-gateway/api-types';
import { objectPath } from '@fleet-gateway/controller';
import { requestThroughEdge } from '@fleet-gateway/local-system';
import { expect, it } from 'vitest';
import { apply, read, until } from '../../src/kube-helpers.js';
import { edgesPropagated, scenario, servingGateway, settledWrites } from '../../src/scenario.js';
import { E2E_MEMBERS, type SystemUnderTest } from '../../src/system-under-test.js';

const WINDOW_MS = 30_000;
const MIN_REQUESTS = 300;
const exportPath = objectPath(RESOURCES.ServiceExport, 'shop', 'e2e-withdraw');

/** Every answer to `path` during a window of at least WINDOW_MS and MIN_REQUESTS requests: status and who answered. */
async function sustained(system: SystemUnderTest, hostname: string, path: string): Promise<{ status: number; cluster?: string }[]> {
  const answers: { status: number; cluster?: string }[] = [];
  const started = Date.now();
  while (Date.now() - started < WINDOW_MS || answers.length < MIN_REQUESTS) {
    const { status, answer } = await requestThroughEdge(system.azure.edgeUrl, hostname, path);
    answers.push({ status, ...(answer ? { cluster: answer.cluster } : {}) });
  }
  return answers;
}

/** After a change: the hub wrote what it had to, and every edge serves it. */
async function propagated(system: SystemUnderTest): Promise<void> {
  await settledWrites(system);
  await edgesPropagated(system);
}

scenario('withdrawal, verified over a sustained interval', ['front-door', 'emulator'], (system) => {
  let hostname = '';

  it('set-up: both members serve /shop and the rest', async () => {
    for (const member of E2E_MEMBERS) await apply(system.members[member], new URL('member.yaml', import.meta.url));
    await apply(system.hub, new URL('hub.yaml', import.meta.url));
    hostname = await servingGateway(system, 'e2e-withdraw', 'withdraw', { members: E2E_MEMBERS, path: '/shop' });
    await propagated(system);
    const seen = new Set((await Promise.all(Array.from({ length: 40 }, () => requestThroughEdge(system.azure.edgeUrl, hostname, '/shop')))).map((r) => r.answer?.cluster));
    expect([...seen].sort()).toEqual(['member-1', 'member-2']);
  });

  it(`a withdrawn cluster never answers /shop during ${WINDOW_MS / 1000} s and ${MIN_REQUESTS}+ requests once the withdrawal has propagated`, async () => {
    await system.members['member-2'].delete(exportPath);
    await until(() => read(system.hub, objectPath(RESOURCES.InternalServiceExport, 'e2e-withdraw-shop', 'fleet-member-member-2')), (e) => e === undefined);
    await propagated(system);
    const answers = await sustained(system, hostname, '/shop');
    expect(answers.length).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(answers.filter((a) => a.cluster === 'member-2')).toEqual([]);
    expect(answers.every((a) => a.status === 200 && a.cluster === 'member-1')).toBe(true);
  });

  it('a rule whose backends are all gone answers 5xx on every request, reaching no backend, while the other rule keeps serving', async () => {
    await system.members['member-1'].delete(exportPath);
    await until(() => read(system.hub, objectPath(RESOURCES.InternalServiceExport, 'e2e-withdraw-shop', 'fleet-member-member-1')), (e) => e === undefined);
    await propagated(system);
    const answers = await sustained(system, hostname, '/shop');
    expect(answers.length).toBeGreaterThanOrEqual(MIN_REQUESTS);
    expect(answers.filter((a) => a.cluster !== undefined)).toEqual([]);
    expect(new Set(answers.map((a) => a.status))).toEqual(new Set([503]));
    const home = await requestThroughEdge(system.azure.edgeUrl, hostname, '/');
    expect(home.status).toBe(200);
  });
});
