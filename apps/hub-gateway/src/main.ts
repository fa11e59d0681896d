import { flagsOrExit, freezesCachedObjects } from '@fleet-gateway/agent-flags';
import { KubeConfig } from '@kubernetes/client-node';
import { HUB_USAGE, parseHubFlags } from './flags.js';
import { startHubAgent } from './hub-agent.js';

/** The hub agent's process: flags, then the agent, then a clean stop on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const flags = flagsOrExit(parseHubFlags(process.argv.slice(2), process.env), HUB_USAGE);
  // In a pod: the service account; elsewhere: $KUBECONFIG or ~/.kube/config.
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  const agent = await startHubAgent(flags, {
    kubeConfig,
    freezeCachedObjects: freezesCachedObjects(process.env),
    onLeadershipLost: () => process.exit(1),
  });
  const stop = (signal: NodeJS.Signals): void => {
    void agent.manager.shutdown(signal).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  // Start-up failures (no usable kubeconfig, a port in use) are one line, not a stack trace.
  process.stderr.write(`hub-gateway: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
