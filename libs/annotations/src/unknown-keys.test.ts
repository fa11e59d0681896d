import { describe, expect, it } from 'vitest';
import { parseGatewayAnnotations } from './gateway-annotations.js';
import { KnownSku } from './known-values.js';
import { parseHTTPRouteAnnotations, parseListenerTlsOptions, parseServiceImportAnnotations } from './object-annotations.js';

const P = 'networking.fleet.azure.com/afd-';
const gateway = (annotations: Record<string, string>) => parseGatewayAnnotations(annotations, { defaultSku: KnownSku.Standard });

function messages(result: { ok: boolean; errors?: readonly { message: string }[] }): string[] {
  return (result.errors ?? []).map((e) => e.message);
}

describe('keys under the reserved prefix that do not belong', () => {
  it('suggests the nearest key for a typo', () => {
    expect(messages(gateway({ [`${P}skku`]: 'Premium_AzureFrontDoor' }))).toEqual([
      `annotation "${P}skku" with value "Premium_AzureFrontDoor" is not supported on a Gateway (metadata.annotations); did you mean "${P}sku"?`,
    ]);
    expect(messages(parseServiceImportAnnotations({ [`${P}health-probe-pth`]: '/' }))).toEqual([
      `annotation "${P}health-probe-pth" with value "/" is not supported on a ServiceImport (metadata.annotations); did you mean "${P}health-probe-path"?`,
    ]);
  });

  it('catches the prefix in another case, which would otherwise be silently ignored', () => {
    expect(messages(gateway({ 'networking.fleet.azure.com/AFD-SKU': 'Premium_AzureFrontDoor' }))).toEqual([
      `annotation "networking.fleet.azure.com/AFD-SKU" with value "Premium_AzureFrontDoor" is not supported on a Gateway (metadata.annotations); did you mean "${P}sku"?`,
    ]);
  });

  it('says where a key of another kind belongs', () => {
    expect(messages(gateway({ [`${P}origin-connectivity`]: 'public' }))).toEqual([
      `annotation "${P}origin-connectivity" with value "public" is not supported on a Gateway (metadata.annotations); it belongs on a ServiceImport (metadata.annotations)`,
    ]);
    expect(messages(parseServiceImportAnnotations({ [`${P}sku`]: 'Premium_AzureFrontDoor' }))).toEqual([
      `annotation "${P}sku" with value "Premium_AzureFrontDoor" is not supported on a ServiceImport (metadata.annotations); it belongs on a Gateway (metadata.annotations)`,
    ]);
    expect(messages(gateway({ [`${P}certificate`]: 'managed' }))).toEqual([
      `annotation "${P}certificate" with value "managed" is not supported on a Gateway (metadata.annotations); it belongs in a Gateway listener's tls.options`,
    ]);
    expect(messages(parseListenerTlsOptions({ [`${P}waf-policy-id`]: 'x' }))).toEqual([
      `annotation "${P}waf-policy-id" with value "x" is not supported in a Gateway listener's tls.options; it belongs on a Gateway (metadata.annotations)`,
    ]);
  });

  it('rejects every reserved key on an HTTPRoute with its route reason', () => {
    const result = parseHTTPRouteAnnotations({ [`${P}origin-host-header`]: 'a.example.com', [`${P}zzzzzzzzzz`]: '1' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.errors.map((e) => [e.key, e.reason])).toEqual([
        [`${P}origin-host-header`, 'UnsupportedValue'],
        [`${P}zzzzzzzzzz`, 'UnsupportedValue'],
      ]);
      expect(result.errors[1]?.message).toBe(
        `annotation "${P}zzzzzzzzzz" with value "1" is not supported on an HTTPRoute (metadata.annotations); expected no ${P}* key`,
      );
      expect(result.errors[1]?.expected).toBe(`no ${P}* key`);
    }
  });

  it('names the allowed keys as the expected form, in the message too when there is no nearer hint', () => {
    const result = parseServiceImportAnnotations({ [`${P}weight`]: '3' });
    expect(!result.ok && result.errors[0]?.message).toBe(
      `annotation "${P}weight" with value "3" is not supported on a ServiceImport (metadata.annotations); expected ${!result.ok && result.errors[0]?.expected}`,
    );
    expect(!result.ok && result.errors[0]?.expected).toBe(
      `one of ${P}origin-connectivity, ${P}health-probe-path, ${P}health-probe-protocol, ${P}health-probe-request-type, ` +
        `${P}health-probe-interval-seconds, ${P}latency-sensitivity-milliseconds, ${P}origin-host-header`,
    );
  });

  it('reports unknown and invalid keys together', () => {
    const result = parseServiceImportAnnotations({
      [`${P}origin-connectivity`]: 'privatelink',
      [`${P}helth-probe-path`]: '/x',
      [`${P}health-probe-path`]: 'x',
    });
    expect(!result.ok && result.errors.map((e) => e.key)).toEqual([`${P}health-probe-path`, `${P}helth-probe-path`, `${P}origin-connectivity`]);
  });
});
