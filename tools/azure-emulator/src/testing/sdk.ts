import { CdnManagementClient } from '@azure/arm-cdn';
import { FrontDoorManagementClient } from '@azure/arm-frontdoor';
import { NetworkManagementClient } from '@azure/arm-network';
import { start, type RunningEmulator } from '../emulator.js';
import type { EmulatorOptions } from '../options.js';
import { sdkClientOptions, stubCredential } from '../sdk-options.js';

export const SUBSCRIPTION = '11111111-2222-3333-4444-555555555555';
export const RESOURCE_GROUP = 'rg-fleet';
export { FAST_POLLING } from '../sdk-options.js';

export interface TestBed {
  emulator: RunningEmulator;
  cdn: CdnManagementClient;
  network: NetworkManagementClient;
  frontDoor: FrontDoorManagementClient;
}

/** An emulator with quick operations, the test resource group, and the three unmodified SDK clients pointed at it. */
export async function startTestBed(options: EmulatorOptions = {}): Promise<TestBed> {
  // No Retry-After: the clients' FAST_POLLING interval rules, so a test does not wait ARM's second per poll.
  // Private Link acts at once unless a test is about its timing.
  const emulator = await start({
    lroDelayMs: 5,
    throttling: false,
    lroRetryAfterSeconds: 0,
    ...options,
    privateLink: { connectionDelayMs: 0, approvalPropagationMs: 0, ...options.privateLink },
  });
  emulator.admin.createResourceGroup({ subscriptionId: SUBSCRIPTION, name: RESOURCE_GROUP });
  const clientOptions = sdkClientOptions(emulator);
  return {
    emulator,
    cdn: new CdnManagementClient(stubCredential, SUBSCRIPTION, clientOptions),
    network: new NetworkManagementClient(stubCredential, SUBSCRIPTION, clientOptions),
    frontDoor: new FrontDoorManagementClient(stubCredential, SUBSCRIPTION, clientOptions),
  };
}

export function cdnId(...typeAndNames: string[]): string {
  return `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Cdn/${typeAndNames.join('/')}`;
}

export function networkId(...typeAndNames: string[]): string {
  return `/subscriptions/${SUBSCRIPTION}/resourceGroups/${RESOURCE_GROUP}/providers/Microsoft.Network/${typeAndNames.join('/')}`;
}

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}
