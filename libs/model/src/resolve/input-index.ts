import type { InternalServiceExport, ReferenceGrant, ServiceImport } from '@fleet-gateway/api-types';
import type { HubInputs } from './hub-inputs.js';
import { memberNamespace, namespacedName } from '../model/names.js';

/** Lookups over the inputs, built once per resolve so that every reference is found without scanning. */
export interface InputIndex {
  serviceImport(namespace: string, name: string): ServiceImport | undefined;
  /** The export of `namespace/name` from `cluster`, matched by its serviceReference, not by its derived name. */
  internalServiceExport(cluster: string, namespace: string, name: string): InternalServiceExport | undefined;
  referenceGrants(namespace: string): readonly ReferenceGrant[];
  namespaceLabels(namespace: string): Readonly<Record<string, string>> | undefined;
}

function group<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = map.get(k);
    if (list) list.push(item);
    else map.set(k, [item]);
  }
  return map;
}

function iseKey(exportNamespace: string, serviceNamespace: string, serviceName: string): string {
  return `${exportNamespace}|${namespacedName(serviceNamespace, serviceName)}`;
}

export function indexInputs(inputs: HubInputs): InputIndex {
  const imports = new Map((inputs.serviceImports ?? []).map((si) => [namespacedName(si.metadata.namespace ?? '', si.metadata.name ?? ''), si]));
  const exports = new Map<string, InternalServiceExport>();
  for (const ise of inputs.internalServiceExports ?? []) {
    const ref = ise.spec?.serviceReference;
    const key = ref ? iseKey(ise.metadata.namespace ?? '', ref.namespace, ref.name) : `${ise.metadata.namespace ?? ''}|name:${ise.metadata.name ?? ''}`;
    exports.set(key, ise);
  }
  const grants = group(inputs.referenceGrants ?? [], (g) => g.metadata.namespace ?? '');
  const namespaces = new Map((inputs.namespaces ?? []).map((ns) => [ns.name, ns.labels ?? {}]));
  return {
    serviceImport: (namespace, name) => imports.get(namespacedName(namespace, name)),
    internalServiceExport: (cluster, namespace, name) => exports.get(iseKey(memberNamespace(cluster), namespace, name)),
    referenceGrants: (namespace) => grants.get(namespace) ?? [],
    namespaceLabels: (namespace) => namespaces.get(namespace),
  };
}
