import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { HubObjects } from '@fleet-gateway/gateway-controllers';
import { readHubInputs } from '@fleet-gateway/model';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { gatewayPlans, PLAN_OPTIONS, planChange, readChange, renderPlanChange, withChange } from './plan-change.js';

const inputs = readHubInputs(readFileSync(path.join(import.meta.dirname, '../../../libs/model/testdata/backend-weights.in.yaml'), 'utf8'));
const objects = {
  gatewayClasses: [inputs.gatewayClass!],
  gateways: [inputs.gateway],
  httpRoutes: inputs.httpRoutes ?? [],
  referenceGrants: [],
  serviceImports: inputs.serviceImports ?? [],
  internalServiceExports: inputs.internalServiceExports ?? [],
  namespaces: [],
} as unknown as HubObjects;
const route = inputs.httpRoutes![0]!;
const SKU = 'Standard_AzureFrontDoor';

/** The fixture's route with its first rule's backendRefs reweighted. */
function reweighted(web: number, cart: number) {
  const [first, ...rest] = route.spec.rules!;
  const backendRefs = first!.backendRefs!.map((ref) => ({ ...ref, weight: ref.name === 'web' ? web : ref.name === 'cart' ? cart : ref.weight }));
  return { apiVersion: route.apiVersion, kind: 'HTTPRoute', metadata: { name: 'web' }, spec: { ...route.spec, rules: [{ ...first, backendRefs }, ...rest] } };
}

const plansOf = (...documents: object[]) =>
  gatewayPlans(objects, withChange(objects, readChange(documents.map((d) => stringify(d)).join('---\n'), 'store')), SKU, PLAN_OPTIONS);
const plan = (...documents: object[]) => planChange(plansOf(...documents));

describe('planChange', () => {
  it('finds nothing to do for a change that alters no Gateway input', () => {
    expect(plan(reweighted(70, 30))).toEqual([]);
  });

  it('lists the origin writes of a reweighting and no verdict', () => {
    const [change, ...others] = plan(reweighted(50, 50));
    expect(others).toEqual([]);
    expect(change).toMatchObject({ gateway: 'store/edge', verdicts: [], blocked: [] });
    expect(change!.writes.length).toBeGreaterThan(0);
    expect(change!.writes.every((w) => w.action !== 'delete' || w.resource.startsWith('origin'))).toBe(true);
    expect(change!.writes.some((w) => w.resource.startsWith('origin'))).toBe(true);
  });

  it('says which route would be refused and why, naming the missing backend', () => {
    const broken = { ...reweighted(70, 30), metadata: { name: 'broken' } };
    broken.spec.rules = [{ backendRefs: [{ group: 'networking.fleet.azure.com', kind: 'ServiceImport', name: 'nobody', port: 80 }] }] as never;
    const [change] = plan(broken);
    const verdict = change!.verdicts.find((v) => v.object === 'HTTPRoute store/broken')!;
    expect(verdict.state).toBe('refused');
    expect(verdict.reasons.join()).toContain('ServiceImport store/nobody not found');
    expect(renderPlanChange([change!])).toContain('refused  HTTPRoute store/broken');
  });

  it('keeps the status and the hub’s annotations of a changed object and raises its generation', () => {
    const withStatus = {
      ...objects,
      httpRoutes: [{ ...route, metadata: { ...route.metadata, annotations: { kept: 'yes' } }, status: { parents: [] } }],
    } as unknown as HubObjects;
    const after = withChange(withStatus, readChange(stringify(reweighted(1, 1)), 'store'));
    expect(after.httpRoutes[0]).toMatchObject({ metadata: { annotations: { kept: 'yes' }, generation: 2 }, status: { parents: [] } });
  });
});

describe('readChange', () => {
  it('names the document, the field, the value and what is expected', () => {
    expect(() => readChange('kind: Pod\nmetadata: {name: x}\n---\nkind: HTTPRoute\nmetadata: {}\n', 'store')).toThrow(
      'the change file cannot be read: document 1: kind is "Pod"; expected one of GatewayClass, Gateway, HTTPRoute, ReferenceGrant, ServiceImport, InternalServiceExport, Namespace; document 2: metadata.name is undefined; expected a name',
    );
    expect(() => readChange('kind: [', 'store')).toThrow(/^the change file cannot be read: document 1: /);
  });

  it('puts namespaced objects in the default namespace unless they name one, and cluster-scoped ones in none', () => {
    const objects = readChange(
      'kind: HTTPRoute\nmetadata: {name: a}\n---\nkind: HTTPRoute\nmetadata: {name: b, namespace: x}\n---\nkind: Namespace\nmetadata: {name: n}\n',
      'store',
    );
    expect(objects.map((o) => o.metadata)).toEqual([{ name: 'a', namespace: 'store' }, { name: 'b', namespace: 'x' }, { name: 'n' }]);
  });
});
