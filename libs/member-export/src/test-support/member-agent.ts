import { createLogger, EventRecorder, KubeClient, Manager } from '@fleet-gateway/controller';
import { KubeConfig } from '@kubernetes/client-node';
import type { Writable } from 'node:stream';
import type { OriginDiscovery } from '../origin-observation.js';
import { registerMemberExportControllers, type MemberExportControllers } from '../register-member-export-controllers.js';

export interface MemberAgent {
  readonly manager: Manager;
  readonly controllers: MemberExportControllers;
  /** The agent's hub client: the scoped credentials of `fleet-member-<member>`. */
  readonly hubClient: KubeClient;
  stop(): Promise<void>;
}

/**
 * The member agent's export side as the app will run it: a Manager on the member cluster, the hub reached only with
 * the kubeconfig the harness issues for this member (a Role in its own namespace).
 */
export async function startMemberAgent(options: {
  member: string;
  memberKubeConfig: KubeConfig;
  hubKubeconfigPath: string;
  logStream: Writable;
  /** The Private Link side, as the app wires it with --enable-private-link-origin-discovery. */
  privateLinkDiscovery?: OriginDiscovery;
}): Promise<MemberAgent> {
  const hubKubeConfig = new KubeConfig();
  hubKubeConfig.loadFromFile(options.hubKubeconfigPath);
  const hubClient = new KubeClient(hubKubeConfig);
  const memberClient = new KubeClient(options.memberKubeConfig);
  const logger = createLogger({ level: 'debug', stream: options.logStream, fields: { component: 'member-discovery', member: options.member } });
  const manager = new Manager({ logger });
  const events = manager.addEventRecorder(
    new EventRecorder({ client: memberClient, reportingController: 'networking.fleet.azure.com/member-discovery', reportingInstance: options.member, logger }),
  );
  const controllers = registerMemberExportControllers({
    manager,
    memberClient,
    hubClient,
    memberCluster: options.member,
    events,
    logger,
    resyncPeriodMs: 500,
    ...(options.privateLinkDiscovery ? { privateLinkDiscovery: options.privateLinkDiscovery } : {}),
  });
  await manager.start();
  return { manager, controllers, hubClient, stop: async () => void (await manager.shutdown('test over')) };
}
