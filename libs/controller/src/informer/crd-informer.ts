import { customResourceDefinitions, type CustomResourceDefinition } from '../kube/custom-resource-definition.js';
import { Informer } from './informer.js';
import type { InformerOptions } from './informer-options.js';

/** An informer of one installed CRD, by name: a field selector makes it the only object listed and watched. */
export function crdInformer(
  name: string,
  options: Omit<InformerOptions<CustomResourceDefinition>, 'resource' | 'fieldSelector'>,
): Informer<CustomResourceDefinition> {
  return new Informer<CustomResourceDefinition>({ ...options, resource: customResourceDefinitions, fieldSelector: `metadata.name=${name}` });
}
