import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../kube/kube-client.js';
import { LeaderElector } from '../leader/leader-elector.js';

/**
 * A leader-election candidate in its own process, so a test can SIGKILL the leader — a real crash, with no
 * release and no more renewals. Configured over IPC; reports its LeaderEvents back over IPC.
 */
export interface CandidateConfig {
  readonly kubeconfigPath: string;
  readonly namespace: string;
  readonly name: string;
  readonly identity: string;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

process.once('message', (config: CandidateConfig) => {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(config.kubeconfigPath);
  const elector = new LeaderElector({ ...config, client: new KubeClient(kubeConfig) });
  elector.onEvent((event) => process.send?.({ ...event, identity: event.type === 'new-leader' ? event.identity : config.identity }));
  elector.start();
  process.send?.({ type: 'ready', identity: config.identity });
});
