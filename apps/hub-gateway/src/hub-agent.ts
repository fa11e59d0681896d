import type { Writable } from 'node:stream';
import type { Sku } from '@fleet-gateway/annotations';
import { checkedBindAddress } from '@fleet-gateway/agent-flags';
import { agentManager, createLogger, EventRecorder, type Logger, type Manager } from '@fleet-gateway/controller';
import { FleetCrdPrerequisite } from '@fleet-gateway/fleet-schema';
import { describeServedGatewayApi, logReleaseChanges, registerHubControllers, servedGatewayApi, servesKind } from '@fleet-gateway/gateway-controllers';
import type { KubeConfig } from '@kubernetes/client-node';
import { createAzureAccess } from './azure-access.js';
import type { HubFlags } from './flags.js';

/** The hub agent's leader Lease (upstream's naming: `<agent>-controller-manager.<group>`). */
export const LEADER_LEASE = 'hub-gateway-controller-manager.networking.fleet.azure.com';
export const REPORTING_CONTROLLER = 'networking.fleet.azure.com/hub-gateway';

export interface HubAgentContext {
  readonly kubeConfig: KubeConfig;
  /** Deep-freeze the informers' cached objects: main.ts decides (freezesCachedObjects, off in production). */
  readonly freezeCachedObjects: boolean;
  /** Where the JSON log goes (default: the console). */
  readonly logStream?: Writable;
  /** Called when leadership is lost and work has stopped: the process must exit. */
  readonly onLeadershipLost: () => void;
}

export interface HubAgent {
  readonly manager: Manager;
  readonly logger: Logger;
}

/** Wires the hub agent's parts onto one Manager and starts it; without --enable-afd no Azure client is created. */
export async function startHubAgent(flags: HubFlags, context: HubAgentContext): Promise<HubAgent> {
  const logger = createLogger({ level: flags.logLevel, ...(context.logStream ? { stream: context.logStream } : {}) });
  const { manager, clients, registry, metrics, identity } = agentManager({
    election: flags,
    kubeConfigs: { hub: context.kubeConfig },
    leaseCluster: 'hub',
    leaseName: LEADER_LEASE,
    logger,
    health: checkedBindAddress('health-probe-bind-address', flags.healthProbeBindAddress),
    metricsAddress: checkedBindAddress('metrics-bind-address', flags.metricsBindAddress),
    ...(flags.metricsSecure ? { metricsSecurity: { reviewCluster: 'hub', ...(flags.metricsCertDir ? { certDir: flags.metricsCertDir } : {}) } } : {}),
    onLeadershipLost: context.onLeadershipLost,
    stallTimeoutMs: flags.reconcileStallTimeoutMs,
  });
  const client = clients.hub;
  // What the hub serves decides which newer kinds and fields are used: read once before the informers are made.
  const served = await servedGatewayApi(client);
  logger.info('the hub serves Gateway API', describeServedGatewayApi(served));
  const events = manager.addEventRecorder(new EventRecorder({ client, reportingController: REPORTING_CONTROLLER, reportingInstance: identity, logger }));
  const freezeObjects = context.freezeCachedObjects;
  const prerequisite = new FleetCrdPrerequisite({ manager, client, logger, metrics, freezeObjects });
  // The leader writes to Azure only within the renew deadline of its last renewal: by then it has renewed or stepped
  // down, and no standby takes the Lease before the lease duration has passed.
  const writeFence = manager.leaseFence(flags.leaseDurationMs - flags.renewDeadlineMs);
  const azure = flags.enableAfd ? createAzureAccess(flags, { registry, logger, ...(writeFence ? { writeFence } : {}) }) : undefined;
  const { classes } = registerHubControllers({
    manager,
    client,
    logger,
    events,
    metrics,
    registry,
    defaultSku: flags.defaultAfdSku as Sku,
    freezeObjects,
    ...(azure ? { azure } : {}),
    prerequisite,
    // An informer of a kind the hub does not serve never syncs: ListenerSets (v1.5+) are watched only where served.
    listenerSets: servesKind(served, 'ListenerSet'),
  });
  classes.gatewayClassCrd.subscribe(logReleaseChanges(logger, served.bundle));
  await manager.start();
  logger.info('hub-gateway started', {
    identity,
    leaderElection: flags.leaderElect ? `${flags.leaderElectionNamespace}/${LEADER_LEASE}` : 'off',
    azureFrontDoor: azure
      ? { subscriptionId: azure.scope.subscriptionId, resourceGroup: azure.scope.resourceGroup, hubIdentity: azure.hubIdentity }
      : 'disabled',
    health: manager.healthUrl,
    metrics: manager.metricsUrl,
    frozenCaches: manager.frozenCaches,
  });
  return { manager, logger };
}
