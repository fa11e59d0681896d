import { describe, expect, it } from 'vitest';
import { HubInputsError, readHubInputs } from './hub-inputs.js';

function problemsOf(text: string): readonly string[] {
  try {
    readHubInputs(text);
  } catch (error) {
    if (error instanceof HubInputsError) return error.problems;
    throw error;
  }
  return [];
}

describe('readHubInputs', () => {
  it('reads a minimal document', () => {
    const inputs = readHubInputs(`
controller: { defaultSku: Premium_AzureFrontDoor }
gateway: { apiVersion: gateway.networking.k8s.io/v1, kind: Gateway, metadata: { name: g, namespace: n }, spec: { gatewayClassName: c, listeners: [] } }
`);
    expect(inputs.gateway.metadata.name).toBe('g');
    expect(inputs.controller.defaultSku).toBe('Premium_AzureFrontDoor');
  });

  it('names every problem with its field, value and expected form', () => {
    expect(
      problemsOf(`
controller: { defaultSku: Basic }
gateway: { kind: Gateway, metadata: {}, spec: {} }
gatewayClass: { kind: Gateway, metadata: { name: c } }
otherGateways: [ { kind: Gateway, metadata: {} } ]
httpRoutes: [ { kind: HTTPRoute, metadata: { name: r } }, { kind: Gateway, metadata: { name: x } }, 3 ]
serviceImports: nope
`),
    ).toEqual([
      'controller.defaultSku is "Basic"; expected "Standard_AzureFrontDoor" or "Premium_AzureFrontDoor"',
      'gateway.metadata.name is missing; expected a name',
      'gateway.spec.listeners is missing; expected a list of listeners',
      'gatewayClass.kind is "Gateway"; expected "GatewayClass"',
      'otherGateways[0].metadata.name is missing; expected a name',
      'httpRoutes[1].kind is "Gateway"; expected "HTTPRoute"',
      'httpRoutes[2] is 3; expected a HTTPRoute object',
      'serviceImports is "nope"; expected a list of ServiceImport objects',
    ]);
  });

  it('refuses a document that is not a mapping', () => {
    expect(problemsOf('- a\n- b\n')).toEqual(['the document is ["a","b"]; expected a mapping with controller and gateway']);
  });
});
