import { ArmError, resourceNotFound } from '../arm/errors.js';
import type { ResourceKind } from '../arm/kind.js';
import { connectionStatusOf } from '../private-link/connections.js';
import { NETWORK_API_VERSIONS } from './network-common.js';

const STATUSES = ['Pending', 'Approved', 'Rejected'];

/**
 * Microsoft.Network/privateLinkServices/privateEndpointConnections: created by the consumer's private endpoint
 * (here: by AFD for Private Link origins), never by PUT; PUT only changes `privateLinkServiceConnectionState`.
 */
export const privateEndpointConnectionKind: ResourceKind = {
  provider: 'Microsoft.Network',
  types: ['privateLinkServices', 'privateEndpointConnections'],
  apiVersions: NETWORK_API_VERSIONS,
  tracked: false,
  putSchema: 'network/2025-05-01/privateLinkService.json#PrivateEndpointConnection',
  lro: { put: false, patch: false, delete: true },
  deletable: true,
  check(request, context) {
    if (request.existing === undefined) {
      throw resourceNotFound(
        `Microsoft.Network/privateLinkServices/${request.path.names[0]}/privateEndpointConnections`,
        request.path.names[1] as string,
        request.path.resourceGroup ?? '',
      );
    }
    const status = (request.body.properties.privateLinkServiceConnectionState as { status?: unknown } | undefined)?.status;
    if (status !== undefined && !STATUSES.includes(String(status))) {
      throw new ArmError(
        400,
        'InvalidRequestFormat',
        `'properties.privateLinkServiceConnectionState.status' must be one of ${STATUSES.join(', ')}; got ${JSON.stringify(status)}.`,
      );
    }
    const current = connectionStatusOf(request.existing);
    // Whether Azure lets a rejected connection be approved again is undocumented (A26): final unless the option says otherwise.
    if (current === 'Rejected' && status !== undefined && status !== 'Rejected' && !context.privateLink.timing.reapproveRejected) {
      throw new ArmError(
        400,
        'PrivateEndpointConnectionRejected',
        `Private endpoint connection '${request.existing.name}' was rejected and cannot become ${String(status)}; the consumer must create a new private endpoint.`,
      );
    }
  },
  prepare(record, request) {
    const previous = (request.existing?.applied ?? request.existing?.body)?.properties.privateLinkServiceConnectionState as object | undefined;
    const requested = request.body.properties.privateLinkServiceConnectionState as object | undefined;
    record.body = { properties: { privateLinkServiceConnectionState: { ...previous, ...requested } } };
  },
  onProvisioned(record, context) {
    context.privateLink.stateChanged(record);
  },
  render(record) {
    return {
      privateEndpoint: { id: record.internal.privateEndpointId },
      linkIdentifier: record.internal.linkIdentifier,
      privateEndpointLocation: record.internal.privateEndpointLocation,
    };
  },
};
