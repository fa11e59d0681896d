/**
 * E2E_MODE=azure checks some of the emulator's named assumptions (the `assumptions` of its fidelity ledger,
 * tools/azure-emulator/fidelity-ledger.yaml) against real AFD: the cheap and safe ones, on a throwaway Standard
 * profile of the run's own (no traffic, no Private Link, deleted at the end). Each answer is recorded with whether it
 * is what the ledger says; every other A-row is listed as manual, with its text. The steps and the comparison are
 * pure; the ARM calls come in through `ArmSend` (real ARM in Azure mode, the emulator in the tests).
 */
import type { LedgerAssumption } from '@fleet-gateway/azure-emulator';

/** An ARM answer: the status and the parsed JSON body. */
export interface ArmAnswer {
  readonly status: number;
  readonly body: unknown;
}
export type ArmSend = (method: string, pathAndQuery: string, body?: unknown) => Promise<ArmAnswer>;

/** What the ledger says one request answers. */
export interface LedgerExpectation {
  readonly status: number;
  readonly code?: string;
  readonly messageIncludes?: string;
}

interface CheckStep {
  readonly name: string;
  readonly method: 'GET' | 'PUT' | 'PATCH' | 'DELETE';
  /** Below the profile. */
  readonly path: string;
  readonly body?: unknown;
  readonly expected: LedgerExpectation;
}

export interface AssumptionAnswer {
  readonly assumption: string;
  readonly step: string;
  readonly request: string;
  readonly status: number;
  readonly code: string | undefined;
  readonly message: string | undefined;
  readonly expected: LedgerExpectation;
  readonly matchesLedger: boolean;
}

/** Microsoft.Cdn's api-version the ledger's checks are written against. */
export const CDN_API_VERSION = '2024-02-01';
const Q = `?api-version=${CDN_API_VERSION}`;

const route = (originGroup: string, pattern: string) => ({
  properties: {
    originGroup: { id: originGroup },
    supportedProtocols: ['Https'],
    patternsToMatch: [pattern],
    forwardingProtocol: 'HttpsOnly',
    linkToDefaultDomain: 'Enabled',
    httpsRedirect: 'Disabled',
  },
});

const LOAD_BALANCING = { loadBalancingSettings: { sampleSize: 4, successfulSamplesRequired: 3 } };

/** The profile and the children the checks need, created first, in order (each must succeed): a routed group and an empty one. */
const fixture = (profileId: string, tags: Readonly<Record<string, string>>): readonly { readonly path: string; readonly body: unknown }[] => [
  { path: '', body: { location: 'global', sku: { name: 'Standard_AzureFrontDoor' }, tags } },
  { path: '/afdEndpoints/ep', body: { location: 'global', properties: { enabledState: 'Enabled' } } },
  { path: '/ruleSets/rs', body: {} },
  { path: '/originGroups/og-used', body: { properties: LOAD_BALANCING } },
  { path: '/originGroups/og-used/origins/o1', body: { properties: { hostName: 'example.com', httpPort: 80, httpsPort: 443, enabledState: 'Enabled' } } },
  { path: '/afdEndpoints/ep/routes/r-used', body: route(`${profileId}/originGroups/og-used`, '/*') },
  { path: '/originGroups/og-empty', body: { properties: LOAD_BALANCING } },
];

/** The automated checks: the ledger row, and per request what the ledger says it answers. */
function automatedChecks(profileId: string): ReadonlyMap<string, readonly CheckStep[]> {
  const group = (name: string) => `${profileId}/originGroups/${name}`;
  return new Map<string, readonly CheckStep[]>([
    [
      'A9',
      [
        { name: 'GET an unknown child type of a profile', method: 'GET', path: '/unknownThings/x', expected: { status: 404, code: 'InvalidResourceType' } },
        { name: 'PATCH a rule set', method: 'PATCH', path: '/ruleSets/rs', body: { properties: {} }, expected: { status: 405, code: 'MethodNotAllowed' } },
      ],
    ],
    [
      'A18',
      [
        {
          name: 'PUT a route to a missing origin group',
          method: 'PUT',
          path: '/afdEndpoints/ep/routes/r-missing',
          body: route(group('og-missing'), '/missing/*'),
          expected: { status: 400 },
        },
      ],
    ],
    [
      'A50',
      [
        {
          name: 'PUT a route to an origin group without origins',
          method: 'PUT',
          path: '/afdEndpoints/ep/routes/r-empty',
          body: route(group('og-empty'), '/empty/*'),
          expected: { status: 400, code: 'BadRequest' },
        },
      ],
    ],
    ['A19', [{ name: 'DELETE an origin group a route uses', method: 'DELETE', path: '/originGroups/og-used', expected: { status: 409, code: 'Conflict' } }]],
    [
      'A51',
      [
        {
          name: 'DELETE the only origin of a group a route uses',
          method: 'DELETE',
          path: '/originGroups/og-used/origins/o1',
          expected: { status: 400, code: 'BadRequest', messageIncludes: 'Cannot disable or delete the last origin' },
        },
      ],
    ],
  ]);
}

/** The ids of the rows `runAssumptionChecks` automates. */
export const AUTOMATED_ASSUMPTIONS: readonly string[] = [...automatedChecks('').keys()];

const errorOf = (body: unknown): { code?: string; message?: string } => (body as { error?: { code?: string; message?: string } } | undefined)?.error ?? {};

/** Pure: whether an answer is what the ledger says. */
export function matchesLedger(answer: ArmAnswer, expected: LedgerExpectation): boolean {
  const { code, message } = errorOf(answer.body);
  return (
    answer.status === expected.status &&
    (expected.code === undefined || code === expected.code) &&
    (expected.messageIncludes === undefined || (message ?? '').includes(expected.messageIncludes))
  );
}

export interface CheckOptions {
  /** `/subscriptions/<id>/resourceGroups/<name>`: where the throwaway profile goes (it must exist). */
  readonly resourceGroupPath: string;
  readonly profileName: string;
  /** The profile's tags (Azure mode: the run's ownership tag, so that e2e-cleanup may delete a profile left behind). */
  readonly tags?: Readonly<Record<string, string>>;
  readonly pollMs: number;
  readonly timeoutMs: number;
}

async function succeeded(send: ArmSend, path: string, options: CheckOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const answer = await send('GET', `${path}${Q}`);
    const state = (answer.body as { properties?: { provisioningState?: string } } | undefined)?.properties?.provisioningState;
    if (answer.status === 200 && (state === 'Succeeded' || state === undefined)) return;
    if (state === 'Failed' || (answer.status !== 200 && answer.status !== 404))
      throw new Error(`${path}: provisioning ended ${state ?? `with ${answer.status}`}: ${JSON.stringify(answer.body)}`);
    if (Date.now() > deadline) throw new Error(`${path} did not finish provisioning within ${options.timeoutMs} ms (last ${state ?? answer.status})`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}

async function gone(send: ArmSend, path: string, options: CheckOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  while ((await send('GET', `${path}${Q}`)).status !== 404) {
    if (Date.now() > deadline) throw new Error(`${path} was not deleted within ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, options.pollMs));
  }
}

/**
 * Creates the throwaway profile, asks every automated question once and records the answers, then deletes the
 * profile (also when a step throws).
 */
export async function runAssumptionChecks(send: ArmSend, options: CheckOptions): Promise<AssumptionAnswer[]> {
  const profileId = `${options.resourceGroupPath}/providers/Microsoft.Cdn/profiles/${options.profileName}`;
  const answers: AssumptionAnswer[] = [];
  try {
    for (const { path, body } of fixture(profileId, options.tags ?? {})) {
      const answer = await send('PUT', `${profileId}${path}${Q}`, body);
      if (answer.status !== 200 && answer.status !== 201 && answer.status !== 202)
        throw new Error(`creating ${profileId}${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      await succeeded(send, `${profileId}${path}`, options);
    }
    for (const [assumption, steps] of automatedChecks(profileId)) {
      for (const step of steps) {
        const answer = await send(step.method, `${profileId}${step.path}${Q}`, step.body);
        const { code, message } = errorOf(answer.body);
        answers.push({
          assumption,
          step: step.name,
          request: `${step.method} ${profileId}${step.path}`,
          status: answer.status,
          code,
          message,
          expected: step.expected,
          matchesLedger: matchesLedger(answer, step.expected),
        });
      }
    }
  } finally {
    await send('DELETE', `${profileId}${Q}`);
    await gone(send, profileId, options);
  }
  return answers;
}

/** Pure: the results file's content — the automated answers, and every other ledger row as a manual check. */
export function assumptionResults(answers: readonly AssumptionAnswer[], ledger: readonly LedgerAssumption[], target: string, at: Date) {
  return {
    checkedAt: at.toISOString(),
    target,
    automated: answers,
    summary: { answers: answers.length, matchingLedger: answers.filter((a) => a.matchesLedger).length },
    manual: ledger.filter((row) => !AUTOMATED_ASSUMPTIONS.includes(row.id)),
  };
}
