import type { Writable } from 'node:stream';
import { checkedBindAddress } from '@fleet-gateway/agent-flags';
import { agentManager, createLogger, EventRecorder, type Logger, type Manager } from '@fleet-gateway/controller';
import { ServedSchemaPrerequisite } from '@fleet-gateway/fleet-schema';
import { hubNamespaceOf, registerMemberExportControllers, type OriginDiscovery } from '@fleet-gateway/member-export';
import type { KubeConfig } from '@kubernetes/client-node';
import { createPrivateLinkOriginDiscovery } from './azure-access.js';
import type { MemberFlags } from './flags.js';

/** The member agent's leader Lease, on the member cluster (upstream's naming: `<agent>-controller-manager.<group>`). */
export const LEADER_LEASE = 'member-discovery-controller-manager.networking.fleet.azure.com';
export const REPORTING_CONTROLLER = 'networking.fleet.azure.com/member-discovery';

export interface MemberAgentContext {
  /** The member cluster (in a pod: its service account). */
  readonly memberKubeConfig: KubeConfig;
  /** The hub, with credentials that may touch only fleet-member-<member>. */
  readonly hubKubeConfig: KubeConfig;
  /** Deep-freeze the informers' cached objects: main.ts decides (freezesCachedObjects, off in production). */
  readonly freezeCachedObjects: boolean;
  /** Where the JSON log goes (default: the console). */
  readonly logStream?: Writable;
  /** Called when leadership is lost and work has stopped: the process must exit. */
  readonly onLeadershipLost: () => void;
  /**
   * The Private Link origin discovery to use with --enable-private-link-origin-discovery instead of the one the flags
   * describe: tests give one on the emulator's network with short cache lifetimes.
   */
  readonly privateLinkDiscovery?: OriginDiscovery;
  /** How often the informers resync every object (default 10 min): tests shorten it to see several resyncs in seconds. */
  readonly resyncPeriodMs?: number;
}

export interface MemberAgent {
  readonly manager: Manager;
  readonly logger: Logger;
  /** Stops taking work, releases the Lease and stops the hub schema re-checks. */
  stop(reason: string): Promise<void>;
}

/** Wires the member agent's parts onto one Manager and starts it; without discovery no Azure client is created. */
export async function startMemberAgent(flags: MemberFlags, context: MemberAgentContext): Promise<MemberAgent> {
  const logger = createLogger({
    level: flags.logLevel,
    fields: { member: flags.memberClusterName },
    ...(context.logStream ? { stream: context.logStream } : {}),
  });
  const { manager, clients, metrics, registry, identity } = agentManager({
    election: flags,
    kubeConfigs: { member: context.memberKubeConfig, hub: context.hubKubeConfig },
    leaseCluster: 'member',
    leaseName: LEADER_LEASE,
    logger,
    health: checkedBindAddress('health-probe-bind-address', flags.healthProbeBindAddress),
    metricsAddress: checkedBindAddress('metrics-bind-address', flags.metricsBindAddress),
    ...(flags.metricsSecure ? { metricsSecurity: { reviewCluster: 'member', ...(flags.metricsCertDir ? { certDir: flags.metricsCertDir } : {}) } } : {}),
    onLeadershipLost: context.onLeadershipLost,
    stallTimeoutMs: flags.reconcileStallTimeoutMs,
  });
  const { member: memberClient, hub: hubClient } = clients;
  const events = manager.addEventRecorder(
    new EventRecorder({ client: memberClient, reportingController: REPORTING_CONTROLLER, reportingInstance: identity, logger }),
  );
  const prerequisite = new ServedSchemaPrerequisite({ manager, hubClient, logger });
  // Approvals only within the renew deadline of the last renewal, as the hub's ARM writes.
  const writeFence = manager.leaseFence(flags.leaseDurationMs - flags.renewDeadlineMs);
  const privateLinkDiscovery = flags.enablePrivateLinkOriginDiscovery
    ? (context.privateLinkDiscovery ?? createPrivateLinkOriginDiscovery(flags, logger, registry, writeFence))
    : undefined;
  registerMemberExportControllers({
    manager,
    memberClient,
    hubClient,
    memberCluster: flags.memberClusterName,
    freezeObjects: context.freezeCachedObjects,
    ...(context.resyncPeriodMs === undefined ? {} : { resyncPeriodMs: context.resyncPeriodMs }),
    events,
    logger,
    metrics,
    ...(flags.region ? { region: flags.region } : {}),
    ...(privateLinkDiscovery ? { privateLinkDiscovery } : {}),
    prerequisite,
  });
  await manager.start();
  await prerequisite.start();
  logger.info('member-discovery started', {
    identity,
    hub: { server: context.hubKubeConfig.getCurrentCluster()?.server, namespace: hubNamespaceOf(flags.memberClusterName) },
    leaderElection: flags.leaderElect ? `${flags.leaderElectionNamespace}/${LEADER_LEASE}` : 'off',
    privateLinkOriginDiscovery: privateLinkDiscovery
      ? { subscriptionId: flags.azureSubscriptionId, nodeResourceGroup: flags.nodeResourceGroup, approveConnections: flags.approvePrivateLinkConnections }
      : 'disabled',
    health: manager.healthUrl,
    metrics: manager.metricsUrl,
    frozenCaches: manager.frozenCaches,
  });
  return {
    manager,
    logger,
    stop: async (reason) => {
      prerequisite.stop();
      await manager.shutdown(reason);
    },
  };
}
