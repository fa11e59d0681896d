import { FAST_POLLING } from '@fleet-gateway/azure-emulator';
import { TEST_SCOPE } from '@fleet-gateway/azure-frontdoor/test-support';
import type { MemberBed } from './member-network.js';

/**
 * What the hub does to ask for a connection: a Premium profile's Private Link origin carrying the request message.
 * AFD (the emulator) then creates its managed private endpoint and the Pending connection on the service.
 */
export async function requestFromFrontDoor(
  bed: MemberBed,
  profile: string,
  privateLinkServiceId: string,
  requestMessage: string,
  group = TEST_SCOPE.resourceGroup,
): Promise<void> {
  const { cdn } = bed.harness.clients;
  await cdn.profiles.beginCreateAndWait(group, profile, { location: 'global', sku: { name: 'Premium_AzureFrontDoor' } }, FAST_POLLING);
  await cdn.afdOriginGroups.beginCreateAndWait(group, profile, 'og', { loadBalancingSettings: { sampleSize: 4, successfulSamplesRequired: 3 } }, FAST_POLLING);
  await cdn.afdOrigins.beginCreateAndWait(
    group,
    profile,
    'og',
    'member-1',
    {
      hostName: '10.224.0.4',
      enabledState: 'Enabled',
      sharedPrivateLinkResource: { privateLink: { id: privateLinkServiceId }, privateLinkLocation: bed.settings.location, requestMessage },
    },
    FAST_POLLING,
  );
}
