import { NetworkManagementClient } from '@azure/arm-network';
import { CoreV1Api, makeInformer, type Informer, type KubeConfig, type V1Service } from '@kubernetes/client-node';
import type { Target } from '../edge/address-map.js';
import { sdkClientOptions, stubCredential } from '../sdk-options.js';
import { AzureLoadBalancerWriter, type ServiceAddress } from './azure-load-balancer.js';
import { planLoadBalancer, type CloudSettings, type LoadBalancerPlan } from './service-annotations.js';

/** The finalizer Kubernetes' service controller puts on LoadBalancer Services. */
export const LOAD_BALANCER_FINALIZER = 'service.kubernetes.io/load-balancer-cleanup';
const MAX_ATTEMPTS = 5;

export interface CloudProviderOptions {
  /** The member cluster whose Services to serve. */
  kubeConfig: KubeConfig;
  emulator: {
    armEndpoint: string;
    caCertificate: string;
    admin: { mapAddress(address: string, port: number, target: Target): void; unmapAddress(address: string, port: number): void };
  };
  settings: Pick<CloudSettings, 'subscriptionId' | 'resourceGroup'> & Partial<CloudSettings>;
  /** The cloud provider's Azure credential (default `stubCredential`; an emulator on `issued-tokens` needs a real one). */
  credential?: ConstructorParameters<typeof NetworkManagementClient>[0];
  log?: (line: string) => void;
}

interface Applied {
  plan: LoadBalancerPlan;
  address: ServiceAddress;
}

/**
 * Stands in for AKS's cloud provider on a member cluster: for each Service of type LoadBalancer it creates the
 * load balancer frontend (internal, or public with a public IP) and, when annotated, the Private Link Service in the
 * emulator, sets `status.loadBalancer.ingress`, and sends the edge's traffic for the address to the local backend a
 * test names with `setBackend`. Deleting the Service (held by the load-balancer-cleanup finalizer) removes them.
 */
export class CloudProviderStandIn {
  private readonly core: CoreV1Api;
  private readonly writer: AzureLoadBalancerWriter;
  private readonly settings: CloudSettings;
  private readonly applied = new Map<string, Applied>();
  private readonly backends = new Map<string, Target>();
  private defaultBackend: Target | undefined;
  private readonly queues = new Map<string, Promise<void>>();
  private readonly failures = new Map<string, string>();
  private azureWrites: Promise<void> = Promise.resolve();
  private informer: Informer<V1Service> | undefined;
  private stopped = false;

  constructor(private readonly options: CloudProviderOptions) {
    this.core = options.kubeConfig.makeApiClient(CoreV1Api);
    this.settings = { location: 'eastus', clusterName: 'kubernetes', vnetName: 'aks-vnet', subnetName: 'aks-subnet', ...options.settings };
    const network = new NetworkManagementClient(options.credential ?? stubCredential, this.settings.subscriptionId, sdkClientOptions(options.emulator, 3));
    this.writer = new AzureLoadBalancerWriter(network, this.settings);
  }

  async start(): Promise<void> {
    const informer = makeInformer(this.options.kubeConfig, '/api/v1/services', () => this.core.listServiceForAllNamespaces());
    const enqueue = (service: V1Service): void => this.enqueue(`${service.metadata?.namespace}/${service.metadata?.name}`);
    informer.on('add', enqueue);
    informer.on('update', enqueue);
    informer.on('delete', enqueue);
    informer.on('error', () => {
      if (!this.stopped) setTimeout(() => void informer.start(), 500).unref();
    });
    this.informer = informer;
    await informer.start();
  }

  /** Sends traffic for every LoadBalancer Service's addresses, on each of its ports, to one local backend unless `setBackend` named another. */
  setDefaultBackend(target: Target): void {
    this.defaultBackend = target;
    for (const [key, applied] of this.applied) this.mapAddresses(key, applied);
  }

  /** Sends traffic for the Service's address on `port` to a local backend. */
  setBackend(namespace: string, name: string, port: number, target: Target): void {
    const key = `${namespace}/${name}`;
    this.backends.set(`${key}:${port}`, target);
    const applied = this.applied.get(key);
    if (applied !== undefined) this.mapAddresses(key, applied);
  }

  /** The last reconcile error per Service (`<ns>/<name>`), for tests and logs. */
  errors(): Record<string, string> {
    return Object.fromEntries(this.failures);
  }

  /** Resolves when every queued reconcile has finished. */
  async idle(): Promise<void> {
    while (this.queues.size > 0) await Promise.all(this.queues.values());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.informer?.stop();
    await this.idle();
  }

  private enqueue(key: string): void {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const next = previous.then(() => this.reconcileWithRetries(key));
    this.queues.set(key, next);
    void next.finally(() => {
      if (this.queues.get(key) === next) this.queues.delete(key);
    });
  }

  private async reconcileWithRetries(key: string): Promise<void> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS && !this.stopped; attempt++) {
      try {
        await this.reconcile(key);
        this.failures.delete(key);
        return;
      } catch (error) {
        const message = (error as Error).message;
        this.failures.set(key, message);
        this.options.log?.(`cloud-provider: ${key}: attempt ${attempt} failed: ${message}`);
        await new Promise((resolve) => setTimeout(resolve, 100 * attempt));
      }
    }
  }

  private async reconcile(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const service = await this.core.readNamespacedService({ namespace, name }).catch((error: { code?: number }) => {
      if (error.code === 404) return undefined;
      throw error;
    });
    const wanted = service !== undefined && service.spec?.type === 'LoadBalancer' && service.metadata?.deletionTimestamp === undefined;
    if (!wanted) {
      await this.cleanUp(key, service);
      return;
    }
    const plan = planLoadBalancer(service, this.settings);
    if (!hasFinalizer(service)) {
      service.metadata = { ...service.metadata, finalizers: [...(service.metadata?.finalizers ?? []), LOAD_BALANCER_FINALIZER] };
      await this.core.replaceNamespacedService({ namespace, name, body: service });
      return;
    }
    const previous = this.applied.get(key);
    if (previous !== undefined && resourcesOf(previous.plan) !== resourcesOf(plan)) await this.removeApplied(key, previous);
    const address = await this.serialized(() => this.writer.ensure(plan));
    const applied = { plan, address };
    this.applied.set(key, applied);
    this.mapAddresses(key, applied);
    const ingress = [{ ip: address.ip }];
    if (JSON.stringify(service.status?.loadBalancer?.ingress ?? []) !== JSON.stringify(ingress)) {
      service.status = { ...service.status, loadBalancer: { ingress } };
      await this.core.replaceNamespacedServiceStatus({ namespace, name, body: service });
    }
  }

  private async cleanUp(key: string, service: V1Service | undefined): Promise<void> {
    const previous = this.applied.get(key);
    if (previous !== undefined) await this.removeApplied(key, previous);
    else if (service !== undefined && hasFinalizer(service)) await this.serialized(() => this.writer.remove(planLoadBalancer(service, this.settings)));
    if (service !== undefined && hasFinalizer(service)) {
      const [namespace, name] = key.split('/') as [string, string];
      service.metadata = { ...service.metadata, finalizers: (service.metadata?.finalizers ?? []).filter((f) => f !== LOAD_BALANCER_FINALIZER) };
      await this.core.replaceNamespacedService({ namespace, name, body: service });
    }
  }

  private async removeApplied(key: string, applied: Applied): Promise<void> {
    await this.serialized(() => this.writer.remove(applied.plan));
    for (const port of applied.plan.ports) {
      this.options.emulator.admin.unmapAddress(applied.address.ip, port.port);
      if (applied.address.fqdn !== undefined) this.options.emulator.admin.unmapAddress(applied.address.fqdn, port.port);
    }
    this.applied.delete(key);
  }

  /**
   * Runs Azure writes one at a time, as cloud-provider-azure does (its service reconcile lock): Services share load
   * balancers, and a load balancer update is a read-modify-write of the whole resource.
   */
  private serialized<T>(write: () => Promise<T>): Promise<T> {
    const result = this.azureWrites.then(write);
    this.azureWrites = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private mapAddresses(key: string, applied: Applied): void {
    for (const port of applied.plan.ports) {
      const target = this.backends.get(`${key}:${port.port}`) ?? this.defaultBackend;
      if (target === undefined) continue;
      this.options.emulator.admin.mapAddress(applied.address.ip, port.port, target);
      if (applied.address.fqdn !== undefined) this.options.emulator.admin.mapAddress(applied.address.fqdn, port.port, target);
    }
  }
}

function hasFinalizer(service: V1Service): boolean {
  return (service.metadata?.finalizers ?? []).includes(LOAD_BALANCER_FINALIZER);
}

/** The Azure resources a plan names: when they change, the old ones are removed before the new ones are made. */
function resourcesOf(plan: LoadBalancerPlan): string {
  return JSON.stringify([plan.loadBalancerName, plan.frontendName, plan.publicIpName, plan.privateLink?.name, plan.privateLink?.resourceGroup]);
}
