import { describe, expect, it } from 'vitest';
import { armOperationOf } from './arm-operation.js';

const rg = 'https://management.azure.com/subscriptions/s/resourceGroups/rg';
const profile = `${rg}/providers/Microsoft.Cdn/profiles/fd`;

describe('armOperationOf', () => {
  it('names the resource type a URL addresses, for one resource and for its list alike', () => {
    expect(armOperationOf(`${profile}?api-version=2024-02-01`)).toBe('profiles');
    expect(armOperationOf(`${rg}/providers/Microsoft.Cdn/profiles?api-version=2024-02-01`)).toBe('profiles');
    expect(armOperationOf(`${profile}/afdEndpoints/web`)).toBe('afdEndpoints');
    expect(armOperationOf(`${profile}/originGroups/og/origins`)).toBe('origins');
    expect(armOperationOf(`${profile}/originGroups/og/origins/o1`)).toBe('origins');
    expect(armOperationOf(`${profile}/afdEndpoints/web/routes/r`)).toBe('routes');
    expect(armOperationOf(`${profile}/ruleSets/rs/rules/r1`)).toBe('rules');
    expect(armOperationOf(`${profile}/securityPolicies/sp`)).toBe('securityPolicies');
    expect(armOperationOf(`${rg}/providers/Microsoft.Network/FrontDoorWebApplicationFirewallPolicies/waf`)).toBe('FrontDoorWebApplicationFirewallPolicies');
    expect(armOperationOf(`${rg}?api-version=2021-04-01`)).toBe('resourceGroups');
  });

  it("takes one spelling per type, whatever casing ARM's ids and poll URLs use", () => {
    expect(armOperationOf('https://management.azure.com/subscriptions/s/resourcegroups/rg/providers/Microsoft.Cdn/profiles/fd/afdendpoints/web')).toBe(
      'afdEndpoints',
    );
    expect(armOperationOf(`${rg}/providers/Microsoft.Network/frontdoorwebapplicationfirewallpolicies/waf`)).toBe('FrontDoorWebApplicationFirewallPolicies');
  });

  it('labels the polls of long-running operations operationResults, status and result URLs alike', () => {
    expect(armOperationOf(`${profile}/operationStatuses/0f4c?api-version=2024-02-01`)).toBe('operationResults');
    expect(armOperationOf(`https://management.azure.com/subscriptions/s/providers/Microsoft.Cdn/locations/global/operationresults/0f4c`)).toBe(
      'operationResults',
    );
  });

  it('names an action by itself and a path outside ARM resources other', () => {
    expect(armOperationOf(`${profile}/checkHostNameAvailability`)).toBe('checkHostNameAvailability');
    expect(armOperationOf('https://management.azure.com/subscriptions/s')).toBe('other');
  });
});
