import type { ReconcileReport } from '@fleet-gateway/azure-frontdoor';
import type { ListenerSetVerdict, VerdictCondition } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { listenerSetStatus } from './listener-set-status.js';

const at = (type: string, status: VerdictCondition['status'], reason: string, observedGeneration: number): VerdictCondition => ({
  type,
  status,
  reason,
  message: reason,
  observedGeneration,
});
const verdict: ListenerSetVerdict = {
  namespace: 'team-a',
  name: 'a',
  conditions: [at('Accepted', 'True', 'Accepted', 2)],
  listeners: [
    {
      name: 'https',
      supportedKinds: [{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute' }],
      attachedRoutes: 1,
      conditions: [at('Accepted', 'True', 'Accepted', 2)],
    },
    { name: 'other', supportedKinds: [], attachedRoutes: 0, conditions: [at('Programmed', 'False', 'Invalid', 2)] },
  ],
  modelListeners: ['ListenerSet/team-a/a/https', 'ListenerSet/team-a/a/other'],
};
const domain = (listeners: string[], validated: boolean) => ({
  name: 'cd',
  hostName: 'a.contoso.example',
  listeners,
  validationState: validated ? 'Approved' : 'Pending',
  validated,
  message: 'custom domain a.contoso.example is pending validation: create DNS TXT record _dnsauth.a.contoso.example',
});
const reconciled = (customDomains: ReturnType<typeof domain>[]) => ({ kind: 'reconciled' as const, report: { customDomains } as unknown as ReconcileReport });
const gatewayProgrammed = at('Programmed', 'True', 'Programmed', 7);
const condition = (conditions: readonly { type: string }[] | undefined, type: string) => conditions?.find((c) => c.type === type);

describe('listenerSetStatus', () => {
  it('a programmed Gateway programs the ListenerSet, at the ListenerSet’s generation; a listener whose domain awaits validation says so', () => {
    const status = listenerSetStatus(verdict, 2, reconciled([domain(['ListenerSet/team-a/a/https'], false)]), gatewayProgrammed);
    expect(condition(status.conditions, 'Programmed')).toMatchObject({ status: 'True', reason: 'Programmed', observedGeneration: 2 });
    expect(condition(status.listeners[0]?.conditions, 'Programmed')).toMatchObject({ status: 'False', reason: 'Pending', observedGeneration: 2 });
    expect(condition(status.listeners[0]?.conditions, 'Programmed')).toHaveProperty('message', expect.stringContaining('_dnsauth.a.contoso.example'));
    // resolve's own verdict on an invalid listener stands.
    expect(condition(status.listeners[1]?.conditions, 'Programmed')).toMatchObject({ status: 'False', reason: 'Invalid' });
    expect(status.listeners[0]).toMatchObject({ name: 'https', attachedRoutes: 1 });
  });

  it('a domain of the Gateway’s listener of the same name is not the ListenerSet listener’s', () => {
    const status = listenerSetStatus(verdict, 2, reconciled([domain(['https'], false)]), gatewayProgrammed);
    expect(condition(status.listeners[0]?.conditions, 'Programmed')).toMatchObject({ status: 'True', message: 'listener is programmed' });
  });

  it('a Gateway not programmed leaves it ParentNotProgrammed, or Pending while unknown; resolve’s False stands', () => {
    const failed = listenerSetStatus(verdict, 2, { kind: 'not-accepted' }, at('Programmed', 'False', 'AzureWriteFailed', 7));
    expect(condition(failed.conditions, 'Programmed')).toMatchObject({ status: 'False', reason: 'ParentNotProgrammed' });
    expect(condition(failed.conditions, 'Programmed')).toHaveProperty('message', 'the Gateway is not programmed: AzureWriteFailed');
    expect(condition(listenerSetStatus(verdict, 2, { kind: 'not-accepted' }, undefined).conditions, 'Programmed')).toMatchObject({
      status: 'Unknown',
      reason: 'Pending',
    });
    const notAllowed = {
      ...verdict,
      conditions: [at('Accepted', 'False', 'NotAllowed', 2), at('Programmed', 'False', 'NotAllowed', 2)],
      listeners: [],
      modelListeners: [],
    };
    const status = listenerSetStatus(notAllowed, 2, reconciled([]), gatewayProgrammed);
    expect(status.conditions.map((c) => `${c.type}=${c.status}:${c.reason}`)).toEqual(['Accepted=False:NotAllowed', 'Programmed=False:NotAllowed']);
    expect(status.listeners).toEqual([]);
  });
});
