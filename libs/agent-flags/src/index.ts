export { commonAgentOptions, readCommonAgentFlags, LOG_LEVELS, type CommonAgentFlags, type LogLevel } from './common-agent-flags.js';
export { checkArmEndpoint, checkBindAddress, checkDnsLabel, checkRegion, checkResourceGroup, checkSubscriptionId } from './checks.js';
export { renderFlagHelp, type FlagSpec, type FlagSpecs } from './flag-spec.js';
export { parseAgentArgs, type ParsedAgentArgs, type Values } from './parse-agent-args.js';
export { readCloudConfig, type CloudConfig } from './cloud-config.js';
export { checkedBindAddress, parseBindAddress, type BindAddress } from './bind-address.js';
export { flagsOrExit, type FlagsResult } from './flags-or-exit.js';
export {
  AZURE_CREDENTIAL_KINDS,
  describeAzureCredential,
  readAzureCredential,
  type AzureCredentialChoice,
  type AzureCredentialInputs,
  type AzureCredentialKind,
} from './azure-credential.js';
export { createAzureCredential } from './create-azure-credential.js';
export { parseDuration } from './duration.js';
export { azureAgentOptions, readArmRateLimitShare, readCloudConfigFile } from './azure-agent-flags.js';
export { readHubConnection, type HubConnection } from './hub-connection.js';
export { AGENT_NODE_FLAGS, type AgentName } from './node-flags.js';
export { freezesCachedObjects } from './cached-objects.js';
