import { Controller, Informer, StatusWriter, type CheckResult, type ControllerRegistrationOptions, type KubeClient } from '@fleet-gateway/controller';
import { ClusterRegion } from './azure-region.js';
import { HubExportWriter } from './hub-export-writer.js';
import { LoadBalancerOriginDiscovery } from './load-balancer-origin-discovery.js';
import { hubNamespaceOf } from './member-names.js';
import {
  exportedServiceOf,
  internalServiceExports,
  serviceExports,
  services,
  type CachedInternalServiceExport,
  type CachedService,
  type CachedServiceExport,
} from './member-resources.js';
import type { OriginDiscovery } from './origin-observation.js';
import { serviceExportReconciler } from './service-export-reconciler.js';

/** The member agent writes ServiceExport status, and InternalServiceExport spec on the hub, under this field manager. */
export const MEMBER_FIELD_MANAGER = 'member-discovery';

/** `concurrency`: different ServiceExports reconciled at once, default 2. */
export interface MemberExportControllerOptions extends ControllerRegistrationOptions {
  /** The member cluster: Services, ServiceExports, Nodes (for the region). */
  readonly memberClient: KubeClient;
  /** The hub, with credentials that may touch only `fleet-member-<memberCluster>`. */
  readonly hubClient: KubeClient;
  /** The Fleet member name: the hub namespace and every export's `serviceReference.clusterId`. */
  readonly memberCluster: string;
  /** The cluster's Azure region when known (cloud config `location`); otherwise read from a node's region label. */
  readonly region?: string;
  /** The cloud's public IP DNS suffix (CLOUD_DNS_SUFFIXES); default Azure public cloud's. */
  readonly dnsZoneSuffix?: string;
  /** Origin discovery for internal load balancer Services (Private Link); without it they publish no origin. */
  readonly privateLinkDiscovery?: OriginDiscovery;
  /** The hub schema check (ServedSchemaPrerequisite): while it fails, reconciles write nothing and come back later. */
  readonly prerequisite?: { check(): CheckResult };
}

export interface MemberExportControllers {
  readonly controller: Controller;
  readonly serviceExports: Informer<CachedServiceExport>;
  readonly services: Informer<CachedService>;
  /** The hub's InternalServiceExports of this member, watched in its hub namespace only. */
  readonly internalServiceExports: Informer<CachedInternalServiceExport>;
  readonly statusWriter: StatusWriter;
  readonly hubWriter: HubExportWriter;
}

/**
 * Registers on `manager` what replaces fleet-networking's member serviceexport and internalserviceexport
 * controllers: informers of ServiceExports and Services (member) and of this member's InternalServiceExports (hub,
 * namespace `fleet-member-<cluster>` only, as its hub token allows), and one controller keyed by ServiceExport that a
 * Service maps to by name and a hub export by its serviceReference.
 */
export function registerMemberExportControllers(options: MemberExportControllerOptions): MemberExportControllers {
  const { manager, memberClient, hubClient, metrics, logger } = options;
  const hubNamespace = hubNamespaceOf(options.memberCluster);
  const fieldManager = options.fieldManager ?? MEMBER_FIELD_MANAGER;
  const common = {
    logger,
    ...(metrics ? { metrics } : {}),
    ...(options.resyncPeriodMs === undefined ? {} : { resyncPeriodMs: options.resyncPeriodMs }),
    ...(options.freezeObjects === undefined ? {} : { freezeObjects: options.freezeObjects }),
  };
  const exportInformer = manager.addInformer(new Informer<CachedServiceExport>({ client: memberClient, resource: serviceExports, ...common }));
  const serviceInformer = manager.addInformer(new Informer<CachedService>({ client: memberClient, resource: services, ...common }));
  const hubInformer = manager.addInformer(
    new Informer<CachedInternalServiceExport>({ client: hubClient, resource: internalServiceExports, namespace: hubNamespace, ...common }),
  );
  const statusWriter = new StatusWriter({ client: memberClient, fieldManager, logger });
  const hubWriter = new HubExportWriter(hubClient, hubNamespace, fieldManager);
  const zone = new ClusterRegion({
    client: memberClient,
    ...(options.region ? { region: options.region } : {}),
    ...(options.dnsZoneSuffix ? { dnsZoneSuffix: options.dnsZoneSuffix } : {}),
  });
  const discovery = new LoadBalancerOriginDiscovery({ zone, ...(options.privateLinkDiscovery ? { privateLink: options.privateLinkDiscovery } : {}) });
  const controller = manager.addController(
    new Controller({
      name: 'service-export',
      kind: 'ServiceExport',
      concurrency: options.concurrency ?? 2,
      logger,
      ...(metrics ? { metrics } : {}),
      reconcile: serviceExportReconciler({
        memberCluster: options.memberCluster,
        memberClient,
        hubNamespace,
        serviceExportStore: exportInformer.store,
        serviceStore: serviceInformer.store,
        hubExportStore: hubInformer.store,
        hubWriter,
        statusWriter,
        events: options.events,
        discovery,
        ...(options.prerequisite ? { prerequisite: options.prerequisite } : {}),
      }),
    }),
  );
  controller.watch(exportInformer);
  controller.watch(serviceInformer);
  controller.watch(hubInformer, (ise) => {
    const service = exportedServiceOf(ise);
    return service ? [service] : [];
  });
  return { controller, serviceExports: exportInformer, services: serviceInformer, internalServiceExports: hubInformer, statusWriter, hubWriter };
}
