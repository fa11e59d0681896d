import type { KubeClient } from '../kube/kube-client.js';
import type { KubeObject } from '../kube/kube-object.js';
import { apiVersionOf, collectionPath, type ResourceType } from '../kube/resource-type.js';
import { eventually } from './real-api.js';

/**
 * A small namespaced CRD shaped like HTTPRoute: `spec.parentNames` refers to other objects by name (for mapping
 * tests), and its status has a keyed `conditions` list and an atomic `parents` list.
 */
export const widgets: ResourceType = {
  group: 'test.fleet-gateway.io',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
};

const condition = {
  type: 'object',
  required: ['type', 'status', 'reason', 'message', 'lastTransitionTime'],
  properties: {
    type: { type: 'string' },
    status: { type: 'string', enum: ['True', 'False', 'Unknown'] },
    reason: { type: 'string' },
    message: { type: 'string' },
    observedGeneration: { type: 'integer' },
    lastTransitionTime: { type: 'string', format: 'date-time' },
  },
};

const conditions = {
  type: 'array',
  items: condition,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['type'],
};

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `${widgets.plural}.${widgets.group}` },
  spec: {
    group: widgets.group,
    scope: 'Namespaced',
    names: { plural: widgets.plural, singular: 'widget', kind: widgets.kind, listKind: 'WidgetList' },
    versions: [
      {
        name: widgets.version,
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: { size: { type: 'integer' }, parentNames: { type: 'array', items: { type: 'string' } } },
              },
              status: {
                type: 'object',
                properties: {
                  phase: { type: 'string' },
                  conditions,
                  parents: {
                    type: 'array',
                    'x-kubernetes-list-type': 'atomic',
                    items: {
                      type: 'object',
                      required: ['parentRef', 'controllerName'],
                      properties: {
                        parentRef: { type: 'object', properties: { name: { type: 'string' } } },
                        controllerName: { type: 'string' },
                        conditions,
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** Creates the Widget CRD and waits until the API server serves it. */
export async function installWidgetCrd(client: KubeClient): Promise<void> {
  await client.create('/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  const served = await eventually(
    () =>
      client.get(`/apis/${widgets.group}/${widgets.version}/${widgets.plural}`).then(
        () => true,
        () => false,
      ),
    (ok) => ok,
  );
  if (!served) throw new Error('the Widget CRD was not served within the timeout');
}

/** Creates a Widget of size 1 in `namespace`, referring to `parentNames` when given. */
export function createWidget<T extends KubeObject>(client: KubeClient, namespace: string, name: string, parentNames?: readonly string[]): Promise<T> {
  return client.create<T>(collectionPath(widgets, namespace), {
    apiVersion: apiVersionOf(widgets),
    kind: widgets.kind,
    metadata: { name },
    spec: { size: 1, ...(parentNames ? { parentNames } : {}) },
  });
}
