import type { AnnotationResult } from './annotation-error.js';
import type { ConfigOf } from './annotation-spec.js';
import { httpRouteContract, listenerTlsContract, serviceImportContract } from './contract.js';
import { parseAnnotations, type AnnotationMap } from './parse-annotations.js';

export type ServiceImportConfig = ConfigOf<typeof serviceImportContract.keys>;
export type ListenerTlsConfig = ConfigOf<typeof listenerTlsContract.keys>;

export function parseServiceImportAnnotations(annotations: AnnotationMap | undefined): AnnotationResult<ServiceImportConfig> {
  return parseAnnotations(serviceImportContract, annotations);
}

/** Parses a listener's `tls.options` (Gateway API's implementation-specific map) with the same rules. */
export function parseListenerTlsOptions(options: AnnotationMap | undefined): AnnotationResult<ListenerTlsConfig> {
  return parseAnnotations(listenerTlsContract, options);
}

/** HTTPRoutes carry no keys: the only possible outcome is "no errors" or the list of misplaced keys. */
export function parseHTTPRouteAnnotations(annotations: AnnotationMap | undefined): AnnotationResult<ConfigOf<typeof httpRouteContract.keys>> {
  return parseAnnotations(httpRouteContract, annotations);
}
