import type { ReconcileReport } from '@fleet-gateway/azure-frontdoor';
import type { RouteVerdict } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { routeVerdictsAsServed } from './route-status.js';

const withdrawn =
  "rule 0: ServiceImport shop/db resolves to Private Link on a Standard_AzureFrontDoor Gateway; rule 0 is withdrawn (NoValidBackends): its requests get an error, never another rule's backend";
const verdicts: RouteVerdict[] = [
  {
    namespace: 'shop',
    name: 'db',
    parents: [
      {
        parentRef: { name: 'gw' },
        conditions: [{ type: 'ResolvedRefs', status: 'False', reason: 'PrivateLinkRequiresPremium', message: withdrawn, observedGeneration: 1 }],
      },
    ],
  },
];
const messageOf = (routes: readonly RouteVerdict[]) => routes[0]?.parents[0]?.conditions[0]?.message;
const reconciled = (report: Pick<ReconcileReport, 'reason' | 'writes' | 'programmed'>) => ({ kind: 'reconciled', report: report as ReconcileReport }) as const;

describe('route verdicts as the Azure step leaves them true', () => {
  it('a SKU change refused before any write withdraws nothing: the rule says it keeps serving, and why', () => {
    const message = messageOf(routeVerdictsAsServed(verdicts, reconciled({ reason: 'SkuImmutable', writes: 0, programmed: false })));
    expect(message).not.toContain('is withdrawn');
    expect(message).toContain(
      "rule 0 would be withdrawn (NoValidBackends), but the Gateway's model was not programmed (SkuImmutable, see its Programmed), so nothing was changed in Azure: it keeps serving as last programmed",
    );
    expect(message).toContain('resolves to Private Link on a Standard_AzureFrontDoor Gateway');
  });

  it('a held Gateway withdraws nothing either', () => {
    const message = messageOf(routeVerdictsAsServed(verdicts, { kind: 'held', previous: undefined, servingGeneration: 4 }));
    expect(message).toContain(
      'rule 0 would be withdrawn (NoValidBackends), but the Gateway is held at generation 4 (see its Accepted), so nothing was changed in Azure',
    );
  });

  it('a model Azure took (programmed, pending, or partly written) reports the withdrawal as made', () => {
    for (const report of [
      { reason: 'Programmed', writes: 3, programmed: true },
      { reason: 'Pending', writes: 0, programmed: false },
      { reason: 'AzureWriteFailed', writes: 2, programmed: false },
    ] as const) {
      expect(messageOf(routeVerdictsAsServed(verdicts, reconciled(report)))).toBe(withdrawn);
    }
  });
});
