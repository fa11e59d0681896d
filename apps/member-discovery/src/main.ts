import { flagsOrExit, freezesCachedObjects, type HubConnection } from '@fleet-gateway/agent-flags';
import { tokenFileKubeConfig } from '@fleet-gateway/controller';
import { KubeConfig } from '@kubernetes/client-node';
import { MEMBER_USAGE, parseMemberFlags } from './flags.js';
import { startMemberAgent } from './member-agent.js';

/** The hub's kubeconfig: the file the flag names, or upstream's environment with its rotating token file. */
function hubKubeConfigOf(hub: HubConnection): KubeConfig {
  if (hub.kind === 'token-file')
    return tokenFileKubeConfig({ name: 'hub', server: hub.server, tokenFile: hub.tokenFile, ...(hub.caPem ? { caPem: hub.caPem } : {}) });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(hub.file);
  return kubeConfig;
}

/** The member agent's process: flags, then the agent, then a clean stop on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const flags = flagsOrExit(parseMemberFlags(process.argv.slice(2), process.env), MEMBER_USAGE);
  // In a pod: the service account; elsewhere: $KUBECONFIG or ~/.kube/config.
  const memberKubeConfig = new KubeConfig();
  memberKubeConfig.loadFromDefault();
  const agent = await startMemberAgent(flags, {
    memberKubeConfig,
    hubKubeConfig: hubKubeConfigOf(flags.hub),
    freezeCachedObjects: freezesCachedObjects(process.env),
    onLeadershipLost: () => process.exit(1),
  });
  const stop = (signal: NodeJS.Signals): void => {
    void agent.stop(signal).then(() => process.exit(0));
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  // Start-up failures (an unreadable hub kubeconfig, a port in use) are one line, not a stack trace.
  process.stderr.write(`member-discovery: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
