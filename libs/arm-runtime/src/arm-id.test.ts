import { describe, expect, it } from 'vitest';
import { parseArmId } from './arm-id.js';

describe('parseArmId', () => {
  it('takes a child resource id apart, keywords in any case', () => {
    expect(parseArmId('/subscriptions/s1/resourcegroups/rg-a/providers/Microsoft.Cdn/profiles/p/originGroups/og-1')).toEqual({
      subscriptionId: 's1',
      resourceGroup: 'rg-a',
      provider: 'Microsoft.Cdn',
      types: ['profiles', 'originGroups'],
      names: ['p', 'og-1'],
      name: 'og-1',
    });
  });

  it('reads a resource group id and a collection path', () => {
    expect(parseArmId('/subscriptions/s1/resourceGroups/rg-a')).toEqual({ subscriptionId: 's1', resourceGroup: 'rg-a', types: [], names: [], name: 'rg-a' });
    expect(parseArmId('/subscriptions/s1/resourceGroups/rg-a/providers/Microsoft.Network/privateLinkServices')).toMatchObject({
      provider: 'Microsoft.Network',
      types: ['privateLinkServices'],
      names: [],
    });
  });

  it('gives nothing for what is not an id', () => {
    expect(parseArmId('')).toEqual({ types: [], names: [] });
    expect(parseArmId('og-1')).toEqual({ types: [], names: [], name: 'og-1' });
  });
});
