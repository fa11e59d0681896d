import { CoreV1Api, KubeConfig, type V1Service } from '@kubernetes/client-node';
import type { LocalSystemRecord } from './state-record.js';

export interface BackendRequest {
  cluster: string;
  namespace: string;
  name: string;
  port: number;
  target: { host: string; port: number };
}

const portNumber = (value: string): number | undefined => (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 65535 ? Number(value) : undefined);

/** Checks the command's flags; pure. */
export function parseBackendRequest(flags: { cluster?: string; service?: string; port?: string; target?: string }): BackendRequest {
  const { cluster, service, port, target } = flags;
  if (!cluster) throw new Error('--cluster is required: the member cluster the Service is in, e.g. --cluster member-1');
  const [namespace, name, ...rest] = (service ?? '').split('/');
  if (!namespace || !name || rest.length > 0) throw new Error(`--service must be <namespace>/<name>, got "${service ?? ''}"`);
  const servicePort = portNumber(port ?? '');
  if (servicePort === undefined) throw new Error(`--port must be the Service's port, a number from 1 to 65535, got "${port ?? ''}"`);
  const separator = (target ?? '').lastIndexOf(':');
  const host = (target ?? '').slice(0, separator);
  const targetPort = portNumber((target ?? '').slice(separator + 1));
  if (separator <= 0 || targetPort === undefined) throw new Error(`--target must be <host>:<port> of your backend, e.g. 127.0.0.1:8080, got "${target ?? ''}"`);
  return { cluster, namespace, name, port: servicePort, target: { host, port: targetPort } };
}

/** The address the edge dials for this Service's port, once the stand-in gave it one; pure. */
export function serviceAddress(service: V1Service, request: BackendRequest): string | undefined {
  const id = `Service ${request.namespace}/${request.name} in ${request.cluster}`;
  if (service.spec?.type !== 'LoadBalancer')
    throw new Error(`${id} is of type ${service.spec?.type ?? 'ClusterIP'}; only a LoadBalancer Service gets an address the edge can reach`);
  const ports = (service.spec.ports ?? []).map((p) => p.port);
  if (!ports.includes(request.port)) throw new Error(`${id} has no port ${request.port} (its ports: ${ports.join(', ') || 'none'})`);
  return service.status?.loadBalancer?.ingress?.[0]?.ip || undefined;
}

/**
 * Points the edge's traffic for a member Service's load balancer address and port at a local backend, through the
 * member's cloud-provider stand-in (the Azure side's PUT /backends, its setBackend): the mapping holds across the
 * Service's reconciles and follows its address. Returns the address it has now, if any.
 */
export async function mapServiceBackend(record: LocalSystemRecord, request: BackendRequest): Promise<{ address: string | undefined }> {
  const members = record.azure?.members ?? [];
  const cluster = record.plane?.clusters.find((c) => c.name === request.cluster);
  if (cluster === undefined || !members.includes(request.cluster)) {
    throw new Error(`--cluster must be a member cluster of this local system (${members.join(', ') || 'none'}), got "${request.cluster}"`);
  }
  const kc = new KubeConfig();
  kc.loadFromFile(cluster.kubeconfig);
  const service = await kc
    .makeApiClient(CoreV1Api)
    .readNamespacedService({ namespace: request.namespace, name: request.name })
    .catch((error: { code?: number }) => {
      if (error.code === 404) throw new Error(`Service ${request.namespace}/${request.name} does not exist in ${request.cluster}`);
      throw error;
    });
  const address = serviceAddress(service, request);
  const body = { member: request.cluster, namespace: request.namespace, name: request.name, port: request.port, target: request.target };
  const response = await fetch(`${record.azure?.backendsUrl}/backends`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`the Azure side refused the mapping (${response.status}): ${await response.text()}`);
  return { address };
}
