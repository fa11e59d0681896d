// Test-only (imported as `@fleet-gateway/member-azure/test-support`, never from production code): the emulator with a
// member's network as cloud-provider-azure builds it, and Front Door asking for connections as the hub does.
export { startMemberBed, provisionService, defaultPlsName, MEMBER_SETTINGS, type MemberBed, type TestService } from './member-network.js';
export { requestFromFrontDoor } from './front-door-request.js';
