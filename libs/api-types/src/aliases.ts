// Names for the nested shapes that consumers pass around, derived from the generated object types so that they
// can never drift from the CRD schemas.
import type { Gateway } from './generated/gateway.generated.js';
import type { GatewayClass } from './generated/gateway-class.generated.js';
import type { HTTPRoute } from './generated/http-route.generated.js';
import type { InternalServiceExport } from './generated/internal-service-export.generated.js';
import type { ReferenceGrant } from './generated/reference-grant.generated.js';
import type { ServiceImport } from './generated/service-import.generated.js';

type Item<T> = NonNullable<T> extends readonly (infer U)[] ? U : never;

export type GatewayClassStatus = NonNullable<GatewayClass['status']>;
export type GatewayListener = Item<Gateway['spec']['listeners']>;
export type GatewayStatus = NonNullable<Gateway['status']>;
export type ListenerStatus = Item<GatewayStatus['listeners']>;
export type Condition = Item<GatewayStatus['conditions']>;
export type ParentReference = Item<HTTPRoute['spec']['parentRefs']>;
export type HTTPRouteRule = Item<HTTPRoute['spec']['rules']>;
export type HTTPRouteMatch = Item<HTTPRouteRule['matches']>;
export type HTTPRouteFilter = Item<HTTPRouteRule['filters']>;
export type HTTPBackendRef = Item<HTTPRouteRule['backendRefs']>;
export type HTTPRouteStatus = HTTPRoute['status'];
export type RouteParentStatus = Item<NonNullable<HTTPRoute['status']>['parents']>;
export type ReferenceGrantFrom = Item<NonNullable<ReferenceGrant['spec']>['from']>;
export type ReferenceGrantTo = Item<NonNullable<ReferenceGrant['spec']>['to']>;
export type ServiceImportStatus = NonNullable<ServiceImport['status']>;
export type ServiceImportPort = Item<ServiceImportStatus['ports']>;
export type InternalServiceExportSpec = NonNullable<InternalServiceExport['spec']>;
export type PrivateLinkServiceReference = NonNullable<InternalServiceExportSpec['privateLinkService']>;
export type PrivateEndpointConnectionObservation = Item<InternalServiceExportSpec['privateEndpointConnections']>;
export type PrivateLinkRequest = Item<NonNullable<InternalServiceExport['status']>['privateLinkRequests']>;
