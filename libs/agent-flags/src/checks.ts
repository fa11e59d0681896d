// Each check returns the error for a bad value (naming flag, value and expected form), or nothing.

import { parseBindAddress } from './bind-address.js';

// Azure resource group names: 1-90 letters, digits, _ - . ( ), not ending in '.'.
const RESOURCE_GROUP = /^[-\w.()]{0,89}[-\w()]$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
// Azure region names as ARM spells them in `location`: lower-case letters and digits, e.g. eastus2.
const REGION = /^[a-z][a-z0-9]*$/;
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function checkSubscriptionId(flag: string, value: string | undefined): string | undefined {
  if (value === undefined || GUID.test(value)) return undefined;
  return `--${flag} has invalid value "${value}"; expected a GUID such as 00000000-0000-0000-0000-000000000000`;
}

export function checkArmEndpoint(flag: string, value: string | undefined): string | undefined {
  if (value === undefined || /^https:\/\/[^/]+\/?$/.test(value)) return undefined;
  return `--${flag} has invalid value "${value}"; expected an https URL with no path, such as https://management.azure.com`;
}

export function checkBindAddress(flag: string, value: string, example: string): string | undefined {
  if (parseBindAddress(value) !== undefined) return undefined;
  return `--${flag} has invalid value "${value}"; expected [host]:port such as ${example}`;
}

export function checkResourceGroup(flag: string, value: string | undefined): string | undefined {
  if (value === undefined || RESOURCE_GROUP.test(value)) return undefined;
  return `--${flag} has invalid value "${value}"; expected an Azure resource group name (1-90 of letters, digits, _ - . ( ), not ending in .)`;
}

export function checkDnsLabel(flag: string, value: string | undefined, example: string): string | undefined {
  if (value === undefined || DNS_LABEL.test(value)) return undefined;
  return `--${flag} has invalid value "${value}"; expected a DNS label such as ${example}`;
}

export function checkRegion(flag: string, value: string | undefined): string | undefined {
  if (value === undefined || REGION.test(value)) return undefined;
  return `--${flag} has invalid value "${value}"; expected an Azure region name such as eastus2`;
}
