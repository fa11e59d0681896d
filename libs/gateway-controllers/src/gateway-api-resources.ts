import { RESOURCES, type GatewayClass } from '@fleet-gateway/api-types';
import type { KubeObject, ResourceType } from '@fleet-gateway/controller';

export type CachedGatewayClass = GatewayClass & KubeObject;

export const gatewayClasses: ResourceType = RESOURCES.GatewayClass;

/** The installed GatewayClass CRD: whether it serves `status.supportedFeatures` decides whether we write it. */
export const GATEWAY_CLASS_CRD = 'gatewayclasses.gateway.networking.k8s.io';
