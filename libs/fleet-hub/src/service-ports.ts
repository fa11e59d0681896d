import type { InternalServiceExportSpec } from '@fleet-gateway/api-types';

export type ServicePort = InternalServiceExportSpec['ports'][number];

/**
 * Whether two exported port lists are the same, as fleet-networking's hub decides it
 * (`equality.Semantic.DeepEqual` on `[]ServicePort`, pkg/controllers/hub/serviceimport and internalserviceexport):
 * order matters, and every field counts, compared as the Go types hold them — an absent name or protocol is the
 * empty string, an absent targetPort is the integer 0 (intstr.IntOrString's zero value, so `8080` and `"8080"`
 * differ), while an absent appProtocol (a nil pointer) differs from an empty one.
 */
export function samePorts(a: readonly ServicePort[] | undefined, b: readonly ServicePort[] | undefined): boolean {
  const left = a ?? [];
  const right = b ?? [];
  return left.length === right.length && left.every((port, i) => samePort(port, right[i]!));
}

function samePort(a: ServicePort, b: ServicePort): boolean {
  return (
    (a.name ?? '') === (b.name ?? '') &&
    (a.protocol ?? '') === (b.protocol ?? '') &&
    a.appProtocol === b.appProtocol &&
    a.port === b.port &&
    (a.targetPort ?? 0) === (b.targetPort ?? 0)
  );
}

/** `http:80/TCP->8080, 443/TCP (h2)`: ports as an operator reads them in an event, every compared field shown. */
export function describePorts(ports: readonly ServicePort[] | undefined): string {
  if (!ports || ports.length === 0) return 'no ports';
  return ports.map(describePort).join(', ');
}

function describePort(p: ServicePort): string {
  const name = p.name ? `${p.name}:` : '';
  const target = p.targetPort === undefined ? '' : `->${JSON.stringify(p.targetPort)}`;
  const appProtocol = p.appProtocol === undefined ? '' : ` (${p.appProtocol})`;
  return `${name}${p.port}/${p.protocol ?? 'TCP'}${target}${appProtocol}`;
}
