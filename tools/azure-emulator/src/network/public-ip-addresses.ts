import { ArmError } from '../arm/errors.js';
import { NETWORK, networkKind, newResourceGuid } from './network-common.js';

/**
 * Microsoft.Network/publicIPAddresses, minimal: an address is allocated at once, `dnsSettings.domainNameLabel`
 * gives `<label>.<location>.cloudapp.azure.com`. publicIpAddress.json is not vendored, so the body is not
 * schema-checked (an open object, like any unresolved $ref).
 */
export const publicIpKind = networkKind({
  types: ['publicIPAddresses'],
  putSchema: 'network/2025-05-01/publicIpAddress.json#PublicIPAddress',
  patchSchema: 'network/2025-05-01/network.json#TagsObject',
  check(request, context) {
    const label = labelOf(request.body.properties);
    if (label === undefined) return;
    const location = String(request.body.location).toLowerCase();
    const taken = context.store
      .ofKind(NETWORK.publicIp)
      .find((pip) => pip.key !== request.key && labelOf(pip.body.properties) === label && String(pip.body.location).toLowerCase() === location);
    if (taken !== undefined) {
      throw new ArmError(400, 'DnsRecordInUse', `DNS record ${label}.${location}.cloudapp.azure.com is already used by another public IP.`);
    }
  },
  prepare(record, _request, context) {
    newResourceGuid(record);
    record.internal.ipAddress ??= context.addresses.allocatePublic();
    const properties = record.body.properties;
    properties.publicIPAllocationMethod ??= 'Static';
    properties.publicIPAddressVersion ??= 'IPv4';
    const label = labelOf(properties);
    if (label !== undefined) {
      properties.dnsSettings = { ...(properties.dnsSettings as object), fqdn: `${label}.${String(record.body.location).toLowerCase()}.cloudapp.azure.com` };
    }
  },
  render(record) {
    const usedBy = record.internal.usedBy;
    return {
      ipAddress: record.internal.ipAddress,
      resourceGuid: record.internal.resourceGuid,
      ...(typeof usedBy === 'string' ? { ipConfiguration: { id: usedBy } } : {}),
    };
  },
  checkDelete(record) {
    if (typeof record.internal.usedBy === 'string') {
      throw new ArmError(
        400,
        'PublicIPAddressCannotBeDeleted',
        `Public IP address ${record.id} can not be deleted since it is still allocated to resource ${record.internal.usedBy}.`,
      );
    }
  },
  onRemoved(record, context) {
    context.addresses.release(record.internal.ipAddress as string | undefined);
  },
});

function labelOf(properties: Record<string, unknown>): string | undefined {
  const label = (properties.dnsSettings as { domainNameLabel?: unknown } | undefined)?.domainNameLabel;
  return typeof label === 'string' && label !== '' ? label.toLowerCase() : undefined;
}
