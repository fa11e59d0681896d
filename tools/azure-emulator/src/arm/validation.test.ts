import { describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_DIR } from '../options.js';
import { convertSpecs, SPEC_BASE_URL } from './spec-documents.js';
import { SchemaValidator, fieldPath } from './validation.js';

const validator = new SchemaValidator(DEFAULT_SPEC_DIR);
const validate =
  (definition: `${string}.json#${string}`, body: unknown, applyDefaults = false) =>
  () =>
    validator.validate(definition, body, { applyDefaults, errorCode: 'BadRequest' });

describe('schema validation against the vendored official specs', () => {
  it('lists the refs it treats as open objects: the network files that are not vendored', () => {
    expect(validator.unresolvedRefs.map((ref) => ref.replace(SPEC_BASE_URL, ''))).toEqual([
      'network/2025-05-01/networkInterface.json#/definitions/NetworkInterface',
      'network/2025-05-01/networkInterface.json#/definitions/NetworkInterfaceIPConfiguration',
      'network/2025-05-01/privateEndpoint.json#/definitions/PrivateEndpoint',
      'network/2025-05-01/publicIpAddress.json#/definitions/PublicIPAddress',
      'network/2025-05-01/virtualNetwork.json#/definitions/Subnet',
    ]);
  });

  it('accepts anything where an unresolved $ref points (subnet), and checks the rest', () => {
    const subnet = { id: 42, whatever: { nested: true } };
    expect(
      validate('network/2025-05-01/loadBalancer.json#LoadBalancer', { properties: { frontendIPConfigurations: [{ name: 'fe', properties: { subnet } }] } }),
    ).not.toThrow();
    expect(validate('network/2025-05-01/loadBalancer.json#LoadBalancer', { properties: { frontendIPConfigurations: [{ name: 7 }] } })).toThrow(
      "'properties.frontendIPConfigurations[0].name' must be string; got 7.",
    );
  });

  it('names a missing required member and applies defaults only when asked', () => {
    expect(validate('cdn/2024-02-01/afdx.json#AFDOrigin', { properties: {} })).toThrow("'properties.hostName' is required.");
    const body = { properties: { hostName: 'x' } };
    validate('cdn/2024-02-01/afdx.json#AFDOrigin', body)();
    expect(body.properties).toEqual({ hostName: 'x' });
    validate('cdn/2024-02-01/afdx.json#AFDOrigin', body, true)();
    expect(body.properties).toMatchObject({ httpPort: 80, httpsPort: 443, enforceCertificateNameCheck: true });
  });

  it('validates a discriminated subtype chosen by its discriminator value', () => {
    const secret = (parameters: unknown) => ({ properties: { parameters } });
    expect(validate('cdn/2024-02-01/afdx.json#Secret', secret({ type: 'UrlSigningKey', keyId: 'k', secretSource: { id: 'x' } }))).not.toThrow();
    expect(validate('cdn/2024-02-01/afdx.json#Secret', secret({ type: 'UrlSigningKey', secretSource: { id: 'x' } }))).toThrow(
      "'properties.parameters.keyId' is required.",
    );
    expect(validate('cdn/2024-02-01/afdx.json#Secret', secret({ type: 'Sideways' }))).toThrow("'properties.parameters.type' must be one of");
  });

  it('treats a definition in a file that is not vendored as open', () => {
    expect(validate('network/2025-05-01/publicIpAddress.json#PublicIPAddress', { anything: ['goes'] })).not.toThrow();
  });

  it('converts boolean exclusive bounds and x-nullable', () => {
    const { schemas } = convertSpecs([
      {
        url: `${SPEC_BASE_URL}t.json`,
        definitions: {
          T: { type: 'integer', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false },
          N: { type: 'string', 'x-nullable': true },
        },
      },
    ]);
    expect(schemas[0]?.definitions).toEqual({ T: { type: 'integer', exclusiveMinimum: 1, maximum: 9 }, N: { type: ['string', 'null'] } });
  });

  it('formats JSON pointers as readable field paths', () => {
    expect(fieldPath('/properties/customDomains/0/id')).toBe('properties.customDomains[0].id');
    expect(fieldPath('', 'location')).toBe('location');
  });
});
