import { RESOURCES, type Gateway, type GatewayClass, type HTTPRoute, type ListenerSet, type ReferenceGrant } from '@fleet-gateway/api-types';
import type { KubeObject, ResourceType } from '@fleet-gateway/controller';

export type CachedGatewayClass = GatewayClass & KubeObject;
export type CachedGateway = Gateway & KubeObject;
export type CachedHTTPRoute = HTTPRoute & KubeObject;
export type CachedListenerSet = ListenerSet & KubeObject;
export type CachedReferenceGrant = ReferenceGrant & KubeObject;
export type CachedNamespace = KubeObject;

export const gatewayClasses: ResourceType = RESOURCES.GatewayClass;
export const gateways: ResourceType = RESOURCES.Gateway;
export const httpRoutes: ResourceType = RESOURCES.HTTPRoute;
export const listenerSets: ResourceType = RESOURCES.ListenerSet;
export const referenceGrants: ResourceType = RESOURCES.ReferenceGrant;
export const namespaces: ResourceType = { group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false };

/** The installed GatewayClass CRD: whether it serves `status.supportedFeatures` decides whether we write it. */
export const GATEWAY_CLASS_CRD = 'gatewayclasses.gateway.networking.k8s.io';
