import type { KubeConfig } from '@kubernetes/client-node';
import { Registry } from 'prom-client';
import { KubeClient } from '../kube/kube-client.js';
import { LeaderElector } from '../leader/leader-elector.js';
import { replicaIdentity } from '../leader/replica-identity.js';
import { MetricsAccessReview } from '../metrics-access/metrics-access-review.js';
import { certificateDirServingCertificate, selfSignedServingCertificate } from '../metrics-access/serving-certificate.js';
import { ControllerMetrics } from '../observability/controller-metrics.js';
import type { Logger } from '../observability/logger.js';
import { Manager } from './manager.js';

/** An agent's leader election settings, as its flags give them. */
export interface AgentLeaderElection {
  readonly leaderElect: boolean;
  readonly leaderElectionNamespace: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

export interface AgentManagerOptions<C extends string> {
  readonly election: AgentLeaderElection;
  /** The clusters the agent talks to, by name: each gets one client, whose throttling retries /metrics counts by that name. */
  readonly kubeConfigs: Readonly<Record<C, KubeConfig>>;
  /** The cluster the Lease lives in. */
  readonly leaseCluster: NoInfer<C>;
  readonly leaseName: string;
  readonly logger: Logger;
  readonly health: { readonly host: string; readonly port: number };
  readonly metricsAddress: { readonly host: string; readonly port: number };
  /**
   * /metrics over HTTPS for those the API server allows (--metrics-secure): the TokenReviews and SubjectAccessReviews go
   * to `reviewCluster` (the cluster whose ServiceAccounts scrape the agent: the one it runs in), the certificate is
   * `certDir`'s tls.crt/tls.key, or a self-signed one without it. Absent, /metrics is plain HTTP to anyone.
   */
  readonly metricsSecurity?: { readonly reviewCluster: NoInfer<C>; readonly certDir?: string };
  readonly onLeadershipLost: () => void;
  /** See ManagerOptions.stallTimeoutMs. */
  readonly stallTimeoutMs?: number;
}

export interface AgentRuntime<C extends string> {
  readonly manager: Manager;
  readonly clients: Readonly<Record<C, KubeClient>>;
  /** The process's one registry: the controller metrics and whatever else the agent reports (ARM). */
  readonly registry: Registry;
  readonly metrics: ControllerMetrics;
  /** This replica in the Lease and in Events. */
  readonly identity: string;
}

/**
 * An agent process's Manager, with one metrics registry and this replica's identity: probes and /metrics on their
 * own addresses and, when on, the leader Lease.
 */
export function agentManager<C extends string>(options: AgentManagerOptions<C>): AgentRuntime<C> {
  const { election, logger } = options;
  const registry = new Registry();
  const metrics = new ControllerMetrics(registry);
  const clients = Object.fromEntries(
    Object.entries<KubeConfig>(options.kubeConfigs).map(([name, kubeConfig]) => [
      name,
      new KubeClient(kubeConfig, { observer: metrics.kubeClientObserver(name) }),
    ]),
  ) as Record<C, KubeClient>;
  const identity = replicaIdentity();
  const leaderElector = election.leaderElect
    ? new LeaderElector({
        client: clients[options.leaseCluster],
        namespace: election.leaderElectionNamespace,
        name: options.leaseName,
        identity,
        leaseDurationMs: election.leaseDurationMs,
        renewDeadlineMs: election.renewDeadlineMs,
        retryPeriodMs: election.retryPeriodMs,
        metrics,
        logger,
      })
    : undefined;
  const security = options.metricsSecurity;
  const certDir = security?.certDir;
  const manager = new Manager({
    logger,
    metrics,
    ...(leaderElector ? { leaderElector } : {}),
    health: options.health,
    metricsAddress: options.metricsAddress,
    ...(security
      ? {
          metricsSecurity: {
            access: new MetricsAccessReview({ client: clients[security.reviewCluster], logger }),
            certificate: async () => (certDir !== undefined ? certificateDirServingCertificate({ dir: certDir, logger }) : selfSignedServingCertificate()),
          },
        }
      : {}),
    onLeadershipLost: options.onLeadershipLost,
    ...(options.stallTimeoutMs !== undefined ? { stallTimeoutMs: options.stallTimeoutMs } : {}),
  });
  return { manager, clients, registry, metrics, identity };
}
