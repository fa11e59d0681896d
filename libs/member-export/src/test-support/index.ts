// Test-only (imported as `@fleet-gateway/member-export/test-support`, never from production code): the member agent's
// export side on a real member and hub, and fixture objects.
export { startMemberAgent, type MemberAgent } from './member-agent.js';
