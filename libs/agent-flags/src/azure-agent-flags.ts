import { readFileSync } from 'node:fs';
import { AZURE_CREDENTIAL_KINDS } from './azure-credential.js';
import { readCloudConfig, type CloudConfig } from './cloud-config.js';
import type { FlagSpecs } from './flag-spec.js';

/** The Azure flags both agents take beside the common ones: the credential, the cloud config, the tenant and the ARM budget share. */
export function azureAgentOptions(agent: { name: string; cloudConfigReads: string }) {
  return {
    'azure-credential': {
      type: 'string',
      default: 'managed-identity',
      valueName: 'KIND',
      description: `the only Azure credential this ${agent.name} uses, one of ${AZURE_CREDENTIAL_KINDS.join(', ')} (from IDENTITY_ENDPOINT, e.g. the local emulator's, else the node's IMDS)`,
    },
    'azure-client-id': {
      type: 'string',
      valueName: 'GUID',
      description: 'client id of the workload identity or of a user-assigned managed identity (else AZURE_CLIENT_ID)',
    },
    'cloud-config': { type: 'string', valueName: 'FILE', description: `AKS cloud config (azure.json): ${agent.cloudConfigReads}; explicit flags override it` },
    'azure-tenant-id': { type: 'string', valueName: 'GUID', description: 'the Microsoft Entra tenant (overrides --cloud-config)' },
    'arm-rate-limit-share': {
      type: 'string',
      default: '0.5',
      valueName: 'FRACTION',
      description: `share of ARM's per-subscription read and write buckets this ${agent.name} may use, in (0, 1]`,
    },
  } as const satisfies FlagSpecs;
}

/** Reads the cloud config the flag names, if any; a file that cannot be read is an error naming it. */
export function readCloudConfigFile(file: string | undefined, errors: string[]): CloudConfig {
  if (file === undefined) return {};
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    errors.push(`--cloud-config "${file}" cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); expected a readable AKS azure.json`);
    return {};
  }
  const read = readCloudConfig(file, text);
  if (!read.ok) errors.push(...read.errors);
  return read.ok ? read.config : {};
}

/** `--arm-rate-limit-share`: a fraction in (0, 1]; a bad value is an error and the default stands in. */
export function readArmRateLimitShare(value: string, errors: string[]): number {
  const share = Number(value);
  if (value.trim() !== '' && share > 0 && share <= 1) return share;
  errors.push(`--arm-rate-limit-share has invalid value "${value}"; expected a fraction in (0, 1] such as 0.5`);
  return 0.5;
}
