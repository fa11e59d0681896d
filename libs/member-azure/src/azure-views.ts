import type { LoadBalancer, PrivateEndpointConnection, PrivateLinkService } from '@azure/arm-network';
import { parseArmId } from '@fleet-gateway/arm-runtime';

/** The part of a load balancer discovery needs. */
export interface LoadBalancerView {
  readonly id: string;
  readonly name: string;
  readonly frontends: readonly FrontendView[];
}

export interface FrontendView {
  readonly id: string;
  readonly name: string;
  readonly privateIPAddress?: string;
}

/** The part of a Private Link Service discovery and approval need. */
export interface PrivateLinkServiceView {
  readonly id: string;
  readonly name: string;
  readonly location: string;
  readonly alias?: string;
  readonly provisioningState?: string;
  readonly frontendIds: readonly string[];
  readonly tags: Readonly<Record<string, string>>;
  readonly connections: readonly ConnectionView[];
}

export type ConnectionStatus = 'Pending' | 'Approved' | 'Rejected' | 'Disconnected';

export interface ConnectionView {
  readonly id: string;
  readonly name: string;
  readonly status: ConnectionStatus;
  readonly description: string;
  readonly privateEndpointId: string;
}

export function loadBalancerView(lb: LoadBalancer): LoadBalancerView {
  return {
    id: lb.id ?? '',
    name: lb.name ?? '',
    frontends: (lb.frontendIPConfigurations ?? []).map((frontend) => ({
      id: frontend.id ?? '',
      name: frontend.name ?? '',
      ...(frontend.privateIPAddress ? { privateIPAddress: frontend.privateIPAddress } : {}),
    })),
  };
}

export function privateLinkServiceView(pls: PrivateLinkService): PrivateLinkServiceView {
  const tags: Record<string, string> = {};
  for (const [key, value] of Object.entries(pls.tags ?? {})) if (typeof value === 'string') tags[key] = value;
  return {
    id: pls.id ?? '',
    name: pls.name ?? '',
    location: pls.location ?? '',
    ...(pls.alias ? { alias: pls.alias } : {}),
    ...(pls.provisioningState ? { provisioningState: pls.provisioningState } : {}),
    frontendIds: (pls.loadBalancerFrontendIpConfigurations ?? []).map((frontend) => frontend.id ?? '').filter((id) => id !== ''),
    tags,
    connections: (pls.privateEndpointConnections ?? []).map(connectionView),
  };
}

const STATUSES: readonly ConnectionStatus[] = ['Pending', 'Approved', 'Rejected', 'Disconnected'];

export function connectionView(connection: PrivateEndpointConnection): ConnectionView {
  const state = connection.privateLinkServiceConnectionState;
  // Azure spells the states in this case; anything else is not one this agent acts on.
  const status = STATUSES.find((known) => known.toLowerCase() === state?.status?.toLowerCase()) ?? 'Disconnected';
  return {
    id: connection.id ?? '',
    name: connection.name ?? '',
    status,
    description: state?.description ?? '',
    privateEndpointId: connection.privateEndpoint?.id ?? '',
  };
}

/** ARM ids compare case-insensitively (Azure returns them in more than one spelling). */
export function sameId(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

export function resourceGroupOf(id: string): string | undefined {
  return parseArmId(id).resourceGroup;
}
