import type { AnnotationError, AnnotationResult } from './annotation-error.js';
import type { ConfigOf } from './annotation-spec.js';
import { gatewayContract } from './contract.js';
import { isSku, type DeletionPolicy, type Sku } from './known-values.js';
import { parseAnnotations, readAnnotation, type AnnotationMap } from './parse-annotations.js';

export type GatewayConfig = Omit<ConfigOf<typeof gatewayContract.keys>, 'sku'> & { readonly sku: Sku };

export interface ParseGatewayOptions {
  /** The controller-wide default tier, used when the Gateway has no afd-sku annotation. */
  readonly defaultSku: Sku;
}

export function parseGatewayAnnotations(annotations: AnnotationMap | undefined, options: ParseGatewayOptions): AnnotationResult<GatewayConfig> {
  // A controller started with a bad default is a wiring bug, not user input; callers validate flags with isSku.
  if (!isSku(options.defaultSku)) throw new RangeError(`defaultSku "${options.defaultSku}" is not a known SKU`);
  const result = parseAnnotations(gatewayContract, annotations);
  if (!result.ok) return result;
  return { ok: true, config: { ...result.config, sku: result.config.sku ?? options.defaultSku } };
}

export type DeletionPolicyResult = { readonly ok: true; readonly policy: DeletionPolicy } | { readonly ok: false; readonly error: AnnotationError };

/**
 * Reads only the deletion policy, so that Gateway deletion honours it even when other keys are invalid. An invalid
 * value is reported, not replaced by the default: the caller should keep its finalizer and surface the error
 * rather than guess whether the user wanted the Azure resources kept.
 */
export function readDeletionPolicy(annotations: AnnotationMap | undefined): DeletionPolicyResult {
  const result = readAnnotation(gatewayContract, 'deletionPolicy', annotations);
  return result.ok ? { ok: true, policy: result.value } : result;
}
