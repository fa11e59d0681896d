import { describe, expect, it } from 'vitest';
import { formatAnnotationErrors } from './annotation-error.js';
import { parseGatewayAnnotations, readDeletionPolicy } from './gateway-annotations.js';
import { KnownSku } from './known-values.js';
import { gatewayContract } from './contract.js';
import { readAnnotation } from './parse-annotations.js';
import { parseHTTPRouteAnnotations, parseListenerTlsOptions, parseServiceImportAnnotations } from './object-annotations.js';

const P = 'networking.fleet.azure.com/afd-';
const standard = { defaultSku: KnownSku.Standard };

describe('parseGatewayAnnotations', () => {
  it('fills every default when no key is present, with the SKU from the controller', () => {
    expect(parseGatewayAnnotations(undefined, { defaultSku: KnownSku.Premium })).toEqual({
      ok: true,
      config: { sku: 'Premium_AzureFrontDoor', wafPolicy: undefined, originResponseTimeoutSeconds: 60, deletionPolicy: 'Delete' },
    });
  });

  it('prefers the annotation over the controller default', () => {
    const result = parseGatewayAnnotations({ [`${P}sku`]: 'Premium_AzureFrontDoor' }, standard);
    expect(result.ok && result.config.sku).toBe('Premium_AzureFrontDoor');
  });

  it('parses the WAF policy id into its parts, keeping the text as written', () => {
    const id =
      '/subscriptions/00000000-0000-0000-0000-00000000000a/resourceGroups/waf/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/edge';
    const result = parseGatewayAnnotations({ [`${P}waf-policy-id`]: id }, standard);
    expect(result.ok && result.config.wafPolicy).toEqual({
      id,
      subscriptionId: '00000000-0000-0000-0000-00000000000a',
      resourceGroup: 'waf',
      name: 'edge',
    });
  });

  it('rejects the reserved resource-group key whatever its value', () => {
    for (const value of ['', 'my-rg', 'MC_rg_cluster_eastus']) {
      const result = parseGatewayAnnotations({ [`${P}resource-group`]: value }, standard);
      expect(result).toEqual({
        ok: false,
        errors: [
          {
            key: `${P}resource-group`,
            value,
            expected: 'no value (the resource group is a controller setting)',
            reason: 'Invalid',
            message: `annotation "${P}resource-group" with value ${JSON.stringify(value)} is reserved and not supported; expected no value (the resource group is a controller setting)`,
          },
        ],
      });
    }
  });

  it('reports every error of the object together, in key order, and never a partial config', () => {
    const result = parseGatewayAnnotations(
      {
        [`${P}waf-policy-id`]: 'nope',
        [`${P}sku`]: 'Basic',
        [`${P}origin-response-timeout-seconds`]: '5',
        [`${P}deletion-policy`]: 'Orphan',
      },
      standard,
    );
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.map((e) => e.key)).toEqual([`${P}origin-response-timeout-seconds`, `${P}sku`, `${P}waf-policy-id`]);
      expect(formatAnnotationErrors(result.errors)).toBe(
        `annotation "${P}origin-response-timeout-seconds" has unsupported value "5"; expected an integer from 16 to 240 (seconds); ` +
          `annotation "${P}sku" has unsupported value "Basic"; expected "Standard_AzureFrontDoor" or "Premium_AzureFrontDoor"; ` +
          `annotation "${P}waf-policy-id" has unsupported value "nope"; expected a resource id "/subscriptions/<GUID>/resourceGroups/<group>/providers/Microsoft.Network/frontdoorWebApplicationFirewallPolicies/<name>"`,
      );
    }
  });

  it('refuses to start from an invalid controller default', () => {
    expect(() => parseGatewayAnnotations({}, { defaultSku: 'Basic' as never })).toThrow(RangeError);
  });
});

describe('readDeletionPolicy', () => {
  it('defaults to Delete when absent', () => {
    expect(readDeletionPolicy(undefined)).toEqual({ ok: true, policy: 'Delete' });
  });

  it('honours Orphan even when every other key of the Gateway is invalid', () => {
    const annotations = { [`${P}deletion-policy`]: 'Orphan', [`${P}sku`]: 'Basic', [`${P}skew`]: 'x' };
    expect(parseGatewayAnnotations(annotations, standard).ok).toBe(false);
    expect(readDeletionPolicy(annotations)).toEqual({ ok: true, policy: 'Orphan' });
  });

  it('reports an invalid policy instead of falling back to Delete', () => {
    const result = readDeletionPolicy({ [`${P}deletion-policy`]: 'Retain' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.message).toBe(`annotation "${P}deletion-policy" has unsupported value "Retain"; expected "Delete" or "Orphan"`);
    }
  });
});

describe('parseServiceImportAnnotations', () => {
  it('fills the documented defaults and ignores non-reserved keys such as the ServiceExport weight', () => {
    const result = parseServiceImportAnnotations({ 'networking.fleet.azure.com/weight': 'junk', 'example.com/x': 'y' });
    expect(result).toEqual({
      ok: true,
      config: {
        connectivity: 'auto',
        healthProbePath: '/',
        healthProbeProtocol: 'Http',
        healthProbeRequestType: 'HEAD',
        healthProbeIntervalSeconds: 240,
        latencySensitivityMilliseconds: 1000,
        originHostHeader: undefined,
      },
    });
  });

  it('returns every explicit value', () => {
    const result = parseServiceImportAnnotations({
      [`${P}origin-connectivity`]: 'private-link',
      [`${P}health-probe-path`]: '/healthz',
      [`${P}health-probe-protocol`]: 'Https',
      [`${P}health-probe-request-type`]: 'GET',
      [`${P}health-probe-interval-seconds`]: '30',
      [`${P}latency-sensitivity-milliseconds`]: '0',
      [`${P}origin-host-header`]: 'store.internal.example.com',
    });
    expect(result).toEqual({
      ok: true,
      config: {
        connectivity: 'private-link',
        healthProbePath: '/healthz',
        healthProbeProtocol: 'Https',
        healthProbeRequestType: 'GET',
        healthProbeIntervalSeconds: 30,
        latencySensitivityMilliseconds: 0,
        originHostHeader: 'store.internal.example.com',
      },
    });
  });

  it('bounds very long values in messages but keeps them whole in the error', () => {
    const long = `${'a.'.repeat(126)}ab`;
    const result = parseServiceImportAnnotations({ [`${P}origin-host-header`]: long });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors[0]?.value).toBe(long);
      expect(result.errors[0]?.message).toContain('... (254 characters); expected a lowercase DNS-1123 subdomain');
    }
  });

  it('escapes control characters in messages', () => {
    const result = parseServiceImportAnnotations({ [`${P}health-probe-path`]: '/a\nb' });
    expect(!result.ok && result.errors[0]?.message).toContain('unsupported value "/a\\nb"');
  });
});

describe('parseListenerTlsOptions', () => {
  it('defaults to no certificate source and TLS 1.2', () => {
    expect(parseListenerTlsOptions(undefined)).toEqual({ ok: true, config: { certificate: undefined, minimumTlsVersion: 'TLS12' } });
  });

  it('ignores options of other implementations', () => {
    const result = parseListenerTlsOptions({ 'example.com/cipher-suites': 'x', [`${P}certificate`]: 'managed' });
    expect(result).toEqual({ ok: true, config: { certificate: 'managed', minimumTlsVersion: 'TLS12' } });
  });
});

describe('parseHTTPRouteAnnotations', () => {
  it('accepts a route without reserved keys', () => {
    expect(parseHTTPRouteAnnotations({ 'kubectl.kubernetes.io/last-applied-configuration': '{}' })).toEqual({ ok: true, config: {} });
  });
});

describe('readAnnotation', () => {
  const broken = { [`${P}sku`]: 'Premium_AzureFrontDoor', [`${P}origin-response-timeout-seconds`]: '9', [`${P}skew`]: 'x' };

  it('returns a valid key as written while other keys of the object are invalid', () => {
    expect(parseGatewayAnnotations(broken, standard).ok).toBe(false);
    expect(readAnnotation(gatewayContract, 'sku', broken)).toEqual({ ok: true, value: 'Premium_AzureFrontDoor' });
  });

  it('reports an invalid key instead of its default, and gives the default only when the key is absent', () => {
    expect(readAnnotation(gatewayContract, 'originResponseTimeoutSeconds', broken)).toEqual({
      ok: false,
      error: {
        key: `${P}origin-response-timeout-seconds`,
        value: '9',
        expected: 'an integer from 16 to 240 (seconds)',
        reason: 'Invalid',
        message: `annotation "${P}origin-response-timeout-seconds" has unsupported value "9"; expected an integer from 16 to 240 (seconds)`,
      },
    });
    expect(readAnnotation(gatewayContract, 'originResponseTimeoutSeconds', {})).toEqual({ ok: true, value: 60 });
    expect(readAnnotation(gatewayContract, 'sku', undefined)).toEqual({ ok: true, value: undefined });
  });
});
