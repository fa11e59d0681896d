export { commonAgentOptions, readCommonAgentFlags, type CommonAgentFlags } from './common-agent-flags.js';
export { checkArmEndpoint, checkBindAddress, checkResourceGroup, checkSubscriptionId } from './checks.js';
export { parseAgentArgs } from './parse-agent-args.js';
