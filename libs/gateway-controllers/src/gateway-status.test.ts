import type { Condition, GatewayStatus } from '@fleet-gateway/api-types';
import type { ReconcileReport } from '@fleet-gateway/azure-frontdoor';
import type { GatewayVerdict } from '@fleet-gateway/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AFD_RECONCILIATION_CONDITION,
  AZURE_DATA_CURRENT_CONDITION,
  describeProgramming,
  describeReport,
  gatewayStatus,
  servingGeneration,
} from './gateway-status.js';

const accepted = { type: 'Accepted', status: 'True', reason: 'Accepted', message: 'Gateway is valid', observedGeneration: 3 } as const;
const verdict: GatewayVerdict = {
  namespace: 'shop',
  name: 'gw',
  conditions: [accepted],
  listeners: [
    {
      name: 'http',
      supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }],
      attachedRoutes: 2,
      conditions: [{ ...accepted, message: 'listener is valid' }],
    },
    {
      name: 'bad',
      supportedKinds: [],
      attachedRoutes: 0,
      conditions: [{ type: 'Programmed', status: 'False', reason: 'Invalid', message: 'port 8080', observedGeneration: 3 }],
    },
  ],
};

function report(extra: Partial<ReconcileReport>): ReconcileReport {
  return {
    profile: 'fgw-shop-gw-1',
    programmed: false,
    reason: 'Pending',
    message: '',
    outcome: { type: 'requeue-after', afterMs: 1000, reason: '' },
    resources: [],
    pending: [],
    propagation: [],
    failures: [],
    privateLinkAwaiting: 0,
    customDomains: [],
    problems: [],
    capacity: [],
    usage: [],
    reads: 0,
    writes: 0,
    ...extra,
  };
}

const programmedOf = (status: ReturnType<typeof gatewayStatus>) => status.conditions.find((c) => c.type === 'Programmed');

describe('gatewayStatus', () => {
  describe('while Azure is being programmed', () => {
    const served = gatewayStatus(
      verdict,
      3,
      { kind: 'reconciled', report: report({ programmed: true, reason: 'Programmed', message: 'ready', endpointHostName: 'e.azurefd.net' }) },
      undefined,
    );
    const writing = describeProgramming({ kind: 'writing', since: Date.parse('2026-01-02T03:04:05Z') });

    it('says what is pending: Pending, the phase, the addresses and AzureDataCurrent as last observed', () => {
      expect(writing).toBe(
        "the Gateway's model is being programmed in Azure (Azure writes in flight since 2026-01-02T03:04:05.000Z); this status follows when Azure has finished",
      );
      const status = gatewayStatus(verdict, 4, { kind: 'programming', message: writing, serving: undefined }, served as GatewayStatus);
      expect(programmedOf(status)).toEqual({ type: 'Programmed', status: 'False', reason: 'Pending', message: writing, observedGeneration: 4 });
      expect(status.listeners[0]?.conditions.find((c) => c.type === 'Programmed')).toMatchObject({ status: 'False', reason: 'Pending' });
      expect(status.addresses).toEqual([{ type: 'Hostname', value: 'e.azurefd.net' }]);
      expect(status.conditions.find((c) => c.type === AZURE_DATA_CURRENT_CONDITION)).toMatchObject({ status: 'True', reason: 'AzureDataRead' });
    });

    it('a generation already programmed stays Programmed while a change of its routes is programmed, naming it once', () => {
      const serving = programmedOf(served) as Condition;
      const once = gatewayStatus(verdict, 3, { kind: 'programming', message: writing, serving }, served as GatewayStatus);
      expect(programmedOf(once)).toEqual({
        type: 'Programmed',
        status: 'True',
        reason: 'Programmed',
        message: `${writing}; meanwhile Azure serves what was programmed: ready`,
        observedGeneration: 3,
      });
      const reading = describeProgramming({ kind: 'reading' });
      const twice = gatewayStatus(verdict, 3, { kind: 'programming', message: reading, serving: programmedOf(once) as Condition }, once as GatewayStatus);
      expect(programmedOf(twice)?.message).toBe(`${reading}; meanwhile Azure serves what was programmed: ready`);
      // Azure unreadable next: the last observed state is what was served, not the programming that has ended.
      const unreadable = report({ reason: 'AzureReadFailed', message: 'reading failed', outcome: { type: 'retry', reason: '' } });
      const after = gatewayStatus(verdict, 3, { kind: 'reconciled', report: unreadable }, twice as GatewayStatus);
      expect(programmedOf(after)?.message).toBe('Azure could not be read (reading failed); the last observed state stands: ready');
    });
  });

  describe('when Azure cannot be read (fail-static)', () => {
    const unreadable = report({
      reason: 'AzureReadFailed',
      message: 'reading the AFD profile failed, nothing was changed: ServiceUnavailable (HTTP 503): down',
      outcome: { type: 'retry', reason: '' },
    });
    const served = gatewayStatus(
      verdict,
      3,
      { kind: 'reconciled', report: report({ programmed: true, reason: 'Programmed', message: 'ready', endpointHostName: 'e.azurefd.net' }) },
      undefined,
    );
    const dataOf = (status: ReturnType<typeof gatewayStatus>) => status.conditions.find((c) => c.type === AZURE_DATA_CURRENT_CONDITION);

    it('keeps the addresses and the last Programmed status and reason, and says what could not be read', () => {
      expect(dataOf(served)).toMatchObject({ status: 'True', reason: 'AzureDataRead' });
      const status = gatewayStatus(verdict, 4, { kind: 'reconciled', report: unreadable }, served as GatewayStatus);
      expect(status.addresses).toEqual([{ type: 'Hostname', value: 'e.azurefd.net' }]);
      expect(programmedOf(status)).toEqual({
        type: 'Programmed',
        status: 'True',
        reason: 'Programmed',
        message: `Azure could not be read (${unreadable.message}); the last observed state stands: ready`,
        observedGeneration: 3,
      });
      expect(status.listeners[0]?.conditions.find((c) => c.type === 'Programmed')).toMatchObject({ status: 'True', reason: 'Programmed' });
      expect(dataOf(status)).toEqual({
        type: AZURE_DATA_CURRENT_CONDITION,
        status: 'False',
        reason: 'AzureReadFailed',
        message: `${unreadable.message}; Programmed and the addresses stay as last observed until Azure can be read again`,
        observedGeneration: 4,
      });
    });

    it('for any last observed state, however many reads fail in a row: the addresses, Programmed status and reason stay', () => {
      const observed = fc.record({
        programmed: fc.boolean(),
        reason: fc.constantFrom<ReconcileReport['reason']>('Programmed', 'Pending', 'AzureWriteFailed', 'CapacityExceeded'),
        message: fc.string({ maxLength: 40 }),
        host: fc.option(fc.domain(), { nil: undefined }),
      });
      fc.assert(
        fc.property(observed, fc.integer({ min: 1, max: 4 }), (last, failures) => {
          const seen = report({
            programmed: last.programmed,
            reason: last.programmed ? 'Programmed' : last.reason,
            message: last.message,
            ...(last.host ? { endpointHostName: last.host } : {}),
          });
          const before = gatewayStatus(verdict, 3, { kind: 'reconciled', report: seen }, undefined);
          let status = before;
          for (let i = 0; i < failures; i++) status = gatewayStatus(verdict, 3 + i, { kind: 'reconciled', report: unreadable }, status as GatewayStatus);
          expect(status.addresses).toEqual(before.addresses);
          expect(programmedOf(status)).toMatchObject({ status: programmedOf(before)?.status, reason: programmedOf(before)?.reason });
          expect(dataOf(status)).toMatchObject({ status: 'False', reason: 'AzureReadFailed' });
        }),
      );
    });

    it('failing again names the failure once; reading again restores what Azure shows', () => {
      const once = gatewayStatus(verdict, 3, { kind: 'reconciled', report: unreadable }, served as GatewayStatus);
      const twice = gatewayStatus(verdict, 3, { kind: 'reconciled', report: unreadable }, once as GatewayStatus);
      expect(programmedOf(twice)?.message).toBe(programmedOf(once)?.message);
      const back = gatewayStatus(
        verdict,
        3,
        { kind: 'reconciled', report: report({ programmed: true, reason: 'Programmed', message: 'ready', endpointHostName: 'e.azurefd.net' }) },
        twice as GatewayStatus,
      );
      expect(programmedOf(back)?.message).toBe('ready');
      expect(dataOf(back)).toMatchObject({ status: 'True', reason: 'AzureDataRead' });
    });

    it('with nothing observed before, Programmed is False AzureReadFailed and there is no address', () => {
      const status = gatewayStatus(verdict, 3, { kind: 'reconciled', report: unreadable }, undefined);
      expect(programmedOf(status)).toMatchObject({ status: 'False', reason: 'AzureReadFailed', message: unreadable.message });
      expect(status.addresses).toBeUndefined();
      // Failing again still has nothing observed to keep: the same condition, not one wrapped in the other.
      expect(programmedOf(gatewayStatus(verdict, 3, { kind: 'reconciled', report: unreadable }, status as GatewayStatus))).toEqual(programmedOf(status));
    });

    it('a reconcile that read Azure and found no endpoint drops the address (only a failed read keeps it)', () => {
      const status = gatewayStatus(verdict, 3, { kind: 'reconciled', report: report({ reason: 'Pending', message: 'p' }) }, served as GatewayStatus);
      expect(status.addresses).toBeUndefined();
    });
  });

  it("a listener whose custom domain awaits DNS validation is Programmed=False with the domain's records; the Gateway and other listeners stay programmed", () => {
    const pending = {
      name: 'cd-www',
      hostName: 'www.example.com',
      listeners: ['http'],
      validationState: 'Pending',
      validated: false,
      message: 'custom domain cd-www (www.example.com) is pending validation: create DNS TXT record _dnsauth.www.example.com with value "t"',
    };
    const approved = {
      ...pending,
      name: 'cd-api',
      hostName: 'api.example.com',
      listeners: ['bad'],
      validationState: 'Approved',
      validated: true,
      message: 'validated',
    };
    const status = gatewayStatus(
      verdict,
      3,
      { kind: 'reconciled', report: report({ programmed: true, reason: 'Programmed', message: 'ready', customDomains: [pending, approved] }) },
      undefined,
    );
    expect(programmedOf(status)?.status).toBe('True');
    const http = status.listeners.find((l) => l.name === 'http')?.conditions.find((c) => c.type === 'Programmed');
    expect(http).toEqual({ type: 'Programmed', status: 'False', reason: 'Pending', message: pending.message, observedGeneration: 3 });
    const validated = gatewayStatus(
      verdict,
      3,
      {
        kind: 'reconciled',
        report: report({
          programmed: true,
          reason: 'Programmed',
          message: 'ready',
          customDomains: [{ ...pending, validationState: 'Approved', validated: true }],
        }),
      },
      undefined,
    );
    expect(validated.listeners.find((l) => l.name === 'http')?.conditions.find((c) => c.type === 'Programmed')).toMatchObject({
      status: 'True',
      message: 'listener is programmed',
    });
  });

  it('takes Programmed from what the provider observed, with the endpoint hostname as the address', () => {
    const status = gatewayStatus(
      verdict,
      3,
      { kind: 'reconciled', report: report({ programmed: true, reason: 'Programmed', message: 'ready', endpointHostName: 'e.azurefd.net' }) },
      undefined,
    );
    expect(programmedOf(status)).toEqual({ type: 'Programmed', status: 'True', reason: 'Programmed', message: 'ready', observedGeneration: 3 });
    expect(status.addresses).toEqual([{ type: 'Hostname', value: 'e.azurefd.net' }]);
    // A listener follows the Gateway unless resolve already decided it (invalid).
    expect(status.listeners[0]?.conditions.find((c) => c.type === 'Programmed')).toMatchObject({ status: 'True', reason: 'Programmed' });
    expect(status.listeners[1]?.conditions.filter((c) => c.type === 'Programmed')).toEqual([
      { type: 'Programmed', status: 'False', reason: 'Invalid', message: 'port 8080', observedGeneration: 3 },
    ]);
    expect(status.listeners[0]).toMatchObject({ name: 'http', attachedRoutes: 2, supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }] });
  });

  it('says what is pending: resources provisioned out of all, each pending item, propagation as informational', () => {
    const pending = report({
      resources: [
        { kind: 'profile', name: 'p', action: 'unchanged', state: 'Succeeded', provenance: [] },
        { kind: 'originGroup', name: 'og-1', action: 'created', state: 'Creating', provenance: [] },
        { kind: 'origin', name: 'o-gone', action: 'deleted', provenance: [] },
      ],
      pending: ['origin group og-1 Creating'],
      propagation: ['AFD is still deploying 1 resource(s) to its edge (endpoint deploymentStatus NotStarted)'],
    });
    expect(describeReport(pending)).toBe(
      '1 of 2 resources provisioned; origin group og-1 Creating; AFD is still deploying 1 resource(s) to its edge (endpoint deploymentStatus NotStarted) (informational)',
    );
    expect(programmedOf(gatewayStatus(verdict, 3, { kind: 'reconciled', report: pending }, undefined))).toMatchObject({ status: 'False', reason: 'Pending' });
  });

  it('maps provider reasons to Gateway API reasons where one fits', () => {
    const capacity = gatewayStatus(
      verdict,
      3,
      { kind: 'reconciled', report: report({ reason: 'CapacityExceeded', message: 'CapacityExceeded: routes would be 101' }) },
      undefined,
    );
    expect(programmedOf(capacity)).toMatchObject({ status: 'False', reason: 'NoResources', message: 'CapacityExceeded: routes would be 101' });
    const foreign = gatewayStatus(verdict, 3, { kind: 'reconciled', report: report({ reason: 'ForeignProfile', message: 'not ours' }) }, undefined);
    expect(programmedOf(foreign)).toMatchObject({ status: 'False', reason: 'ForeignProfile' });
  });

  it('a Gateway over the AFD profile quota is Programmed=False NoResources with the quota named, and its listeners follow', () => {
    const status = gatewayStatus(
      verdict,
      3,
      { kind: 'over-quota', message: 'the AFD profile quota of 500 Standard/Premium profiles per subscription is reached' },
      undefined,
    );
    expect(programmedOf(status)).toMatchObject({
      status: 'False',
      reason: 'NoResources',
      message: 'the AFD profile quota of 500 Standard/Premium profiles per subscription is reached',
      observedGeneration: 3,
    });
    expect(status.listeners[0]?.conditions.find((c) => c.type === 'Programmed')).toMatchObject({ status: 'False', reason: 'NoResources' });
    expect(status.addresses).toBeUndefined();
  });

  /** What a Gateway programmed at generation 2 carries before an edit is held. */
  const PROGRAMMED_AT_GENERATION_2 = {
    type: 'Programmed',
    status: 'True',
    reason: 'Programmed',
    message: 'ready on e.azurefd.net',
    observedGeneration: 2,
    lastTransitionTime: '2026-01-01T00:00:00Z',
  } as const;

  it('a held Gateway keeps Programmed=True at the current generation, naming the generation it serves, and keeps its address', () => {
    const previous = PROGRAMMED_AT_GENERATION_2;
    const current = { addresses: [{ type: 'Hostname', value: 'e.azurefd.net' }] } as GatewayStatus;
    const held = gatewayStatus(verdict, 3, { kind: 'held', previous, servingGeneration: servingGeneration(previous) ?? 0 }, current);
    expect(programmedOf(held)).toEqual({
      type: 'Programmed',
      status: 'True',
      reason: 'Programmed',
      message:
        'serves the configuration accepted at generation 2; generation 3 is not accepted (see Accepted), so nothing was changed in Azure: ready on e.azurefd.net',
      observedGeneration: 3,
    });
    expect(held.addresses).toEqual(current.addresses);
    // Held again: still generation 2, and the message does not nest.
    const again = programmedOf(held)!;
    expect(servingGeneration({ ...again, lastTransitionTime: 'x' })).toBe(2);
    const twice = gatewayStatus(verdict, 4, { kind: 'held', previous: { ...again, lastTransitionTime: 'x' }, servingGeneration: 2 }, current);
    expect(programmedOf(twice)?.message).toBe(
      'serves the configuration accepted at generation 2; generation 4 is not accepted (see Accepted), so nothing was changed in Azure: ready on e.azurefd.net',
    );
  });

  it('held at an unchanged generation, Programmed names the change outside the spec as Accepted does, never assuming annotations', () => {
    const previous = PROGRAMMED_AT_GENERATION_2;
    const refusedClass = {
      type: 'Accepted',
      status: 'False',
      reason: 'InvalidParameters',
      message: 'GatewayClass afd is not accepted: parametersRef is set',
      observedGeneration: 2,
    } as const;
    const held = gatewayStatus({ ...verdict, conditions: [refusedClass] }, 2, { kind: 'held', previous, servingGeneration: 2 }, undefined);
    expect(programmedOf(held)?.message).toBe(
      'serves the configuration accepted at generation 2; generation 2 is no longer accepted after a change outside its spec (InvalidParameters: GatewayClass afd is not accepted: parametersRef is set), so nothing was changed in Azure: ready on e.azurefd.net',
    );
    expect(programmedOf(held)?.message).not.toContain('annotations');
    // Held again, the served configuration is named once, not nested.
    const again = gatewayStatus(
      { ...verdict, conditions: [refusedClass] },
      3,
      { kind: 'held', previous: { ...programmedOf(held)!, lastTransitionTime: 'x' }, servingGeneration: 2 },
      undefined,
    );
    expect(programmedOf(again)?.message).toBe(
      'serves the configuration accepted at generation 2; generation 3 is not accepted (see Accepted), so nothing was changed in Azure: ready on e.azurefd.net',
    );
  });

  it('with AFD disabled: a programmed Gateway keeps its Programmed condition and gets the warning condition; a new one is Pending', () => {
    const previous = { type: 'Programmed', status: 'True', reason: 'Programmed', message: 'ready', observedGeneration: 2, lastTransitionTime: 't' } as const;
    const kept = gatewayStatus(verdict, 3, { kind: 'disabled', previous }, undefined);
    expect(programmedOf(kept)).toEqual({ type: 'Programmed', status: 'True', reason: 'Programmed', message: 'ready', observedGeneration: 2 });
    expect(kept.conditions.find((c) => c.type === AFD_RECONCILIATION_CONDITION)).toMatchObject({ status: 'False', reason: 'Disabled', observedGeneration: 3 });
    const fresh = gatewayStatus(verdict, 3, { kind: 'disabled', previous: undefined }, undefined);
    expect(programmedOf(fresh)).toMatchObject({
      status: 'False',
      reason: 'Pending',
      message: 'Azure Front Door reconciliation is disabled on this hub (--enable-afd=false); nothing is programmed in Azure',
    });
    // Enabled again: the warning condition is no longer part of the status we apply, so server-side apply removes it.
    const enabled = gatewayStatus(verdict, 3, { kind: 'reconciled', report: report({ programmed: true, reason: 'Programmed', message: 'ready' }) }, undefined);
    expect(enabled.conditions.map((c) => c.type)).toEqual(['Accepted', 'Programmed', AZURE_DATA_CURRENT_CONDITION]);
  });

  it('bounds a long message and says how much was left out', () => {
    const pending = Array.from({ length: 2000 }, (_, i) => `origin o-${i} Creating`);
    const message = programmedOf(gatewayStatus(verdict, 3, { kind: 'reconciled', report: report({ pending }) }, undefined))?.message ?? '';
    expect(message.length).toBeLessThanOrEqual(8_000);
    const [, left] = /; … and (\d+) more$/.exec(message) ?? [];
    // Every pending item is either in the message or counted.
    expect(message.split('; ').filter((p) => p.startsWith('origin o-')).length + Number(left)).toBe(2000);
  });
});
