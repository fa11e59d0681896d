import type { AFDOrigin, Route } from '@azure/arm-cdn';
import { FAST_POLLING, RESOURCE_GROUP, cdnId, type TestBed } from './sdk.js';

export interface OriginSpec {
  name: string;
  hostName: string;
  httpPort?: number;
  weight?: number;
  priority?: number;
  extra?: Partial<AFDOrigin>;
}

export async function createProfile(bed: TestBed, profile: string, sku = 'Premium_AzureFrontDoor'): Promise<void> {
  await bed.cdn.profiles.beginCreateAndWait(RESOURCE_GROUP, profile, { location: 'global', sku: { name: sku } }, FAST_POLLING);
}

export async function createEndpoint(bed: TestBed, profile: string, endpoint: string): Promise<string> {
  const created = await bed.cdn.afdEndpoints.beginCreateAndWait(
    RESOURCE_GROUP,
    profile,
    endpoint,
    { location: 'global', enabledState: 'Enabled' },
    FAST_POLLING,
  );
  return created.hostName as string;
}

export async function createOriginGroup(bed: TestBed, profile: string, group: string, probePath?: string, additionalLatencyInMilliseconds = 50): Promise<void> {
  await bed.cdn.afdOriginGroups.beginCreateAndWait(
    RESOURCE_GROUP,
    profile,
    group,
    {
      loadBalancingSettings: { sampleSize: 4, successfulSamplesRequired: 3, additionalLatencyInMilliseconds },
      ...(probePath === undefined ? {} : { healthProbeSettings: { probePath, probeProtocol: 'Http', probeRequestType: 'GET', probeIntervalInSeconds: 1 } }),
    },
    FAST_POLLING,
  );
}

export async function createOrigin(bed: TestBed, profile: string, group: string, origin: OriginSpec): Promise<AFDOrigin> {
  return bed.cdn.afdOrigins.beginCreateAndWait(
    RESOURCE_GROUP,
    profile,
    group,
    origin.name,
    {
      hostName: origin.hostName,
      httpPort: origin.httpPort ?? 80,
      weight: origin.weight ?? 50,
      priority: origin.priority ?? 1,
      enabledState: 'Enabled',
      ...origin.extra,
    },
    FAST_POLLING,
  );
}

export async function createRoute(bed: TestBed, profile: string, endpoint: string, route: string, group: string, extra: Partial<Route> = {}): Promise<Route> {
  return bed.cdn.routes.beginCreateAndWait(
    RESOURCE_GROUP,
    profile,
    endpoint,
    route,
    {
      originGroup: { id: cdnId('profiles', profile, 'originGroups', group) },
      linkToDefaultDomain: 'Enabled',
      patternsToMatch: ['/*'],
      supportedProtocols: ['Http', 'Https'],
      forwardingProtocol: 'HttpOnly',
      ...extra,
    },
    FAST_POLLING,
  );
}
