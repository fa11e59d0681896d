import { shippedRole } from '@fleet-gateway/azure-emulator';
import { describe, expect, it } from 'vitest';
import { accessHint, HUB_ROLE_NAMES } from './azure-access-hints.js';

const scope = { subscriptionId: '00000000-0000-4000-8000-000000000001', resourceGroup: 'fleet-afd' };
const who = { identity: 'the hub' };

describe('accessHint', () => {
  it('names the roles deploy/azure-roles ships, by the Names an assignment takes', () => {
    expect(HUB_ROLE_NAMES).toEqual({
      frontDoor: shippedRole('hub-gateway-front-door').definition.name,
      wafReader: shippedRole('hub-gateway-waf-reader').definition.name,
    });
    const hint = accessHint({ class: 'terminal', category: 'authorization', status: 403, code: 'AuthorizationFailed', cause: 'no' }, scope, who);
    expect(hint).toBe(
      `the hub lacks access to scope /subscriptions/${scope.subscriptionId}/resourceGroups/fleet-afd: assign it the role "Fleet Gateway hub: Front Door" there (deploy/azure-roles; and "Fleet Gateway hub: WAF policy reader" on any WAF policy the Gateways attach)`,
    );
    expect(accessHint({ class: 'terminal', category: 'conflict', status: 409, code: 'Conflict', cause: 'no' }, scope, who)).toBeUndefined();
  });
});
