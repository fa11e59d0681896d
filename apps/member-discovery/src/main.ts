import { flagsOrExit } from '@fleet-gateway/agent-flags';
import { MEMBER_USAGE, parseMemberFlags } from './flags.js';

/**
 * The member agent's process. Its controllers (ServiceExport, load balancer and Private Link Service discovery,
 * connection approval) are issue 13 and not built yet: until they are, a valid configuration is refused with one
 * line saying so, rather than a process that looks healthy and does nothing.
 */
function main(): void {
  const flags = flagsOrExit(parseMemberFlags(process.argv.slice(2)), MEMBER_USAGE);
  process.stderr.write(`member-discovery: the member agent's controllers are not built yet (issue 13); member ${flags.memberClusterName} is not served\n`);
  process.exit(1);
}

main();
