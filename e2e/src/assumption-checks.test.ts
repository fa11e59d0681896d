/**
 * The Azure-mode assumption checks, run here against the emulator: it enforces what the ledger says, so every
 * automated answer must match the ledger — proving the checks ask what the ledger's rows describe — and the
 * throwaway profile must be gone afterwards. In Azure mode the same code runs against management.azure.com.
 */
import { RawArmClient, readFidelityLedger, start, type RunningEmulator } from '@fleet-gateway/azure-emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assumptionResults, AUTOMATED_ASSUMPTIONS, matchesLedger, runAssumptionChecks, type ArmSend } from './assumption-checks.js';

const SUB = '00000000-0000-0000-0000-0000000a55e7';
const GROUP = `/subscriptions/${SUB}/resourceGroups/rg-e2e`;
const OPTIONS = { resourceGroupPath: GROUP, profileName: 'fgw-assumptions-abc123', pollMs: 20, timeoutMs: 20_000 };

let emulator: RunningEmulator;
let client: RawArmClient;
let send: ArmSend;
beforeAll(async () => {
  emulator = await start({ lroDelayMs: 50, throttling: false });
  emulator.admin.createResourceGroup({ subscriptionId: SUB, name: 'rg-e2e' });
  client = new RawArmClient(emulator.armEndpoint, emulator.caCertificate);
  send = (method, pathAndQuery, body) => client.send(method, pathAndQuery, body);
});
afterAll(async () => {
  client.close();
  await emulator.stop();
});

describe('the Azure-mode assumption checks', () => {
  it('against the emulator, every automated answer is what the ledger says, and the throwaway profile is deleted', async () => {
    const answers = await runAssumptionChecks(send, OPTIONS);
    expect([...new Set(answers.map((a) => a.assumption))]).toEqual(['A9', 'A18', 'A50', 'A19', 'A51']);
    for (const answer of answers) expect(answer, `${answer.assumption}: ${answer.step}`).toMatchObject({ matchesLedger: true, status: answer.expected.status });
    const profiles = await client.send('GET', `${GROUP}/providers/Microsoft.Cdn/profiles?api-version=2024-02-01`);
    expect((profiles.body as { value: unknown[] }).value).toEqual([]);
  });

  it('an answer other than the ledger’s is recorded as not matching (status, code or message)', () => {
    const expected = { status: 400, code: 'BadRequest', messageIncludes: 'last origin' };
    expect(matchesLedger({ status: 400, body: { error: { code: 'BadRequest', message: 'Cannot delete the last origin' } } }, expected)).toBe(true);
    expect(matchesLedger({ status: 200, body: {} }, expected)).toBe(false);
    expect(matchesLedger({ status: 400, body: { error: { code: 'InvalidResource', message: 'the last origin' } } }, expected)).toBe(false);
    expect(matchesLedger({ status: 400, body: { error: { code: 'BadRequest', message: 'something else' } } }, expected)).toBe(false);
  });

  it('lists every other ledger row as manual, with its text, and the automated ones are ledger rows', () => {
    const rows = readFidelityLedger().assumptions;
    expect(rows.length).toBeGreaterThan(50);
    for (const id of AUTOMATED_ASSUMPTIONS) expect(rows.map((r) => r.id)).toContain(id);
    const results = assumptionResults([], rows, 'emulator', new Date('2026-12-01T17:00:00Z'));
    expect(results.manual.map((r) => r.id)).toEqual(rows.map((r) => r.id).filter((id) => !AUTOMATED_ASSUMPTIONS.includes(id)));
    const a66 = results.manual.find((r) => r.id === 'A66');
    expect(a66?.assumption).toMatch(/Microsoft\.Network\/privateLinkServices\/read/);
    expect(a66?.check).toMatch(/LinkedAuthorizationFailed|AuthorizationFailed/);
    for (const row of rows) expect(row.check.length, row.id).toBeGreaterThan(20);
  });
});
