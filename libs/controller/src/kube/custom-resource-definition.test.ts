import { describe, expect, it } from 'vitest';
import { crdServesField, type CustomResourceDefinition } from './custom-resource-definition.js';

const crd = (versions: CustomResourceDefinition['spec']['versions']): CustomResourceDefinition => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', versions },
});
const schema = {
  openAPIV3Schema: {
    properties: { status: { properties: { entries: { items: { properties: { name: {} } } } } } },
  },
};

describe('crdServesField', () => {
  it('finds a field of the served version, stepping through list items', () => {
    const installed = crd([{ name: 'v1', served: true, storage: true, schema }]);
    expect(crdServesField(installed, 'v1', ['status', 'entries'])).toBe(true);
    expect(crdServesField(installed, 'v1', ['status', 'entries', 'name'])).toBe(true);
    expect(crdServesField(installed, 'v1', ['status', 'other'])).toBe(false);
    expect(crdServesField(installed, 'v1', ['spec'])).toBe(false);
  });

  it('answers false for a version not served, another version, or no CRD', () => {
    expect(crdServesField(crd([{ name: 'v1', served: false, storage: true, schema }]), 'v1', ['status'])).toBe(false);
    expect(crdServesField(crd([{ name: 'v1', served: true, storage: true, schema }]), 'v2', ['status'])).toBe(false);
    expect(crdServesField(undefined, 'v1', ['status'])).toBe(false);
  });
});
