import { describe, expect, it } from 'vitest';
import { annotationContracts } from './contract.js';
import { parseAnnotations } from './parse-annotations.js';

// Valid and invalid samples for every key. The last test fails when a key is added without samples here.
const samples: Record<string, { valid: string[]; invalid: string[] }> = {
  'networking.fleet.azure.com/afd-sku': {
    valid: ['Standard_AzureFrontDoor', 'Premium_AzureFrontDoor'],
    invalid: ['', 'premium_azurefrontdoor', 'Premium', 'Standard_Verizon', ' Premium_AzureFrontDoor'],
  },
  'networking.fleet.azure.com/afd-waf-policy-id': {
    valid: [
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/p1',
      '/SUBSCRIPTIONS/AAAAAAAA-0000-0000-0000-000000000000/resourcegroups/my.rg_(1)/PROVIDERS/microsoft.network/FrontDoorWebApplicationFirewallPolicies/Edge',
    ],
    invalid: [
      '',
      'subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/p1',
      '/subscriptions/not-a-guid/resourceGroups/rg/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/p1',
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups//providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/p1',
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/',
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Cdn/profiles/p1',
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/p1/extra',
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg./providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/p1',
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/1policy',
      '/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/rg/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/my-policy',
    ],
  },
  'networking.fleet.azure.com/afd-origin-response-timeout-seconds': {
    valid: ['16', '60', '240'],
    invalid: ['', '15', '241', '0', '060', '+60', '60s', '6e1', '-16', ' 60', '60.0'],
  },
  'networking.fleet.azure.com/afd-deletion-policy': {
    valid: ['Delete', 'Orphan'],
    invalid: ['', 'delete', 'orphan', 'Retain', 'Keep'],
  },
  'networking.fleet.azure.com/afd-certificate': {
    valid: ['managed'],
    invalid: ['', 'Managed', 'ManagedCertificate', 'keyvault'],
  },
  'networking.fleet.azure.com/afd-minimum-tls-version': {
    valid: ['TLS12'],
    invalid: ['', 'TLS1.2', 'tls12', 'TLS13', 'TLS11', 'TLS10'],
  },
  'networking.fleet.azure.com/afd-origin-connectivity': {
    valid: ['auto', 'public', 'private-link'],
    invalid: ['', 'Auto', 'private', 'privatelink', 'Private-Link', 'none'],
  },
  'networking.fleet.azure.com/afd-health-probe-path': {
    valid: ['/', '/healthz', '/a/b-c_d.e~f', '/%2Fencoded', "/x:y@z!$&'()*+,;="],
    invalid: ['', 'healthz', '//evil.example.com/x', 'http://x/healthz', '/a?b=1', '/a#frag', '/a b', '/%zz', '/ä'],
  },
  'networking.fleet.azure.com/afd-health-probe-protocol': {
    valid: ['Http', 'Https'],
    invalid: ['', 'HTTP', 'https', 'Tcp', 'NotSet'],
  },
  'networking.fleet.azure.com/afd-health-probe-request-type': {
    valid: ['HEAD', 'GET'],
    invalid: ['', 'head', 'Get', 'POST', 'NotSet'],
  },
  'networking.fleet.azure.com/afd-health-probe-interval-seconds': {
    valid: ['1', '100', '255'],
    invalid: ['', '0', '256', '01', '30s', '1e2'],
  },
  'networking.fleet.azure.com/afd-latency-sensitivity-milliseconds': {
    valid: ['0', '50', '1000'],
    invalid: ['', '-1', '1001', '00', '50ms', '5.5'],
  },
  'networking.fleet.azure.com/afd-origin-host-header': {
    valid: ['a', 'store.internal.example.com', 'x-1.y-2', `${'a'.repeat(63)}.com`],
    invalid: ['', 'Store.example.com', '-a.com', 'a-.com', 'a..com', 'a_b.com', `${'a'.repeat(64)}.com`, 'a.com:8080'],
  },
};

const rows = annotationContracts.flatMap((contract) => Object.entries(contract.keys).map(([field, spec]) => ({ contract, field, spec })));

describe.each(rows)('$spec.key', ({ contract, field, spec }) => {
  const sample = samples[spec.key] ?? { valid: [], invalid: [] };

  it.each(sample.valid)('accepts %j', (value) => {
    const result = parseAnnotations(contract, { [spec.key]: value });
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.config[field]).toBeDefined();
  });

  it.each(sample.invalid)('rejects %j naming key, value, expected form and reason', (value) => {
    const result = parseAnnotations(contract, { [spec.key]: value });
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          key: spec.key,
          value,
          expected: spec.parser.expected,
          reason: contract.reason,
          message: `annotation "${spec.key}" has unsupported value ${JSON.stringify(value)}; expected ${spec.parser.expected}`,
        },
      ],
    });
  });

  it('uses its default only when absent', () => {
    const result = parseAnnotations(contract, {});
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(result.config[field]).toEqual(spec.defaultValue);
  });

  it('documents an example that parses', () => {
    expect(spec.parser.parse(spec.example).ok).toBe(true);
  });
});

it('has valid and invalid samples for every key of the contract', () => {
  const missing = rows.map((r) => r.spec.key).filter((key) => !samples[key]?.valid.length || !samples[key]?.invalid.length);
  expect(missing).toEqual([]);
});
