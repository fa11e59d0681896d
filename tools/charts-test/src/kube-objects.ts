import { collectionPath, objectPath, type KubeClient, type ResourceType } from '@fleet-gateway/controller';
import type { Manifest } from './helm.js';

/** The kinds the charts render, with their REST names: a new kind in a chart fails here until it is added. */
const RESOURCES: Record<string, Omit<ResourceType, 'kind' | 'group' | 'version'>> = {
  ServiceAccount: { plural: 'serviceaccounts', namespaced: true },
  Service: { plural: 'services', namespaced: true },
  ConfigMap: { plural: 'configmaps', namespaced: true },
  Deployment: { plural: 'deployments', namespaced: true },
  PodDisruptionBudget: { plural: 'poddisruptionbudgets', namespaced: true },
  NetworkPolicy: { plural: 'networkpolicies', namespaced: true },
  Role: { plural: 'roles', namespaced: true },
  RoleBinding: { plural: 'rolebindings', namespaced: true },
  ClusterRole: { plural: 'clusterroles', namespaced: false },
  ClusterRoleBinding: { plural: 'clusterrolebindings', namespaced: false },
  CustomResourceDefinition: { plural: 'customresourcedefinitions', namespaced: false },
  ServiceMonitor: { plural: 'servicemonitors', namespaced: true },
  PrometheusRule: { plural: 'prometheusrules', namespaced: true },
};

export function resourceOf(manifest: Manifest): ResourceType {
  const known = RESOURCES[manifest.kind];
  if (!known) throw new Error(`the charts render ${manifest.kind}, which tools/charts-test does not know`);
  const [group, version] = manifest.apiVersion.includes('/') ? manifest.apiVersion.split('/') : ['', manifest.apiVersion];
  return { group: group!, version: version!, kind: manifest.kind, ...known };
}

export const pathOf = (manifest: Manifest): string => objectPath(resourceOf(manifest), manifest.metadata.name, manifest.metadata.namespace);

/** Server-side apply of one rendered object (create or update); SSA refuses fields the schema does not declare. */
export function applyManifest(client: KubeClient, manifest: Manifest): Promise<Manifest> {
  return client.patch<Manifest>(pathOf(manifest), manifest, 'apply', { fieldManager: 'charts-test', force: 'true' });
}

/**
 * Creates one rendered object as a dry run with strict field validation (an unknown or duplicate field is an error,
 * not a warning): the API server decodes, defaults, validates and admits it — RBAC escalation checks included — and
 * stores nothing.
 */
export function dryRunCreate(client: KubeClient, manifest: Manifest): Promise<Manifest> {
  const resource = resourceOf(manifest);
  return client.create<Manifest>(collectionPath(resource, manifest.metadata.namespace), manifest, { dryRun: 'All', fieldValidation: 'Strict' });
}
