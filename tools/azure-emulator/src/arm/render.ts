import type { DeploymentTiming } from './context.js';
import { responseIdOf, responseTypeOf, type ResourceKind } from './kind.js';
import type { ResourceRecord } from './store.js';
import type { EmulatorContext } from '../emulator-context.js';

type DeploymentStatus = 'NotStarted' | 'InProgress' | 'Succeeded' | 'Failed';

/**
 * AFD's deploymentStatus: NotStarted while a write runs and for a while after it succeeded, then InProgress, then
 * Succeeded, measured from the moment provisioning last succeeded (a write restarts it).
 */
function deploymentStatusOf(record: ResourceRecord, timing: DeploymentTiming, now: number): DeploymentStatus {
  if (record.provisioningState === 'Failed') return 'Failed';
  if (timing.mode === 'stuck' || record.provisioningState !== 'Succeeded' || record.provisionedAtMs === undefined) return 'NotStarted';
  const elapsed = now - record.provisionedAtMs;
  if (elapsed < timing.notStartedMs) return 'NotStarted';
  if (elapsed < timing.notStartedMs + timing.inProgressMs) return 'InProgress';
  return 'Succeeded';
}

/** The resource document ARM returns for GET, PUT, PATCH and in lists. */
export function renderResource(record: ResourceRecord, kind: ResourceKind, context: EmulatorContext): Record<string, unknown> {
  const { properties, ...topLevel } = record.body;
  const computed = kind.render?.(record, context) ?? {};
  const document: Record<string, unknown> = {
    id: responseIdOf(record.path, kind),
    name: record.name,
    type: responseTypeOf(kind),
    // Azure returns an empty tag set on AFD's tracked resources rather than leaving the member out.
    ...(kind.tracked && kind.provider === 'Microsoft.Cdn' ? { tags: {} } : {}),
    ...topLevel,
  };
  if (kind.provider === 'Microsoft.Network') document.etag = record.etag;
  if (kind.provider === 'Microsoft.Cdn') document.systemData = systemDataOf(record);
  document.properties = {
    ...properties,
    ...computed,
    provisioningState: record.provisioningState,
    ...(kind.hasDeploymentStatus ? { deploymentStatus: deploymentStatusOf(record, context.deployment, context.now()) } : {}),
  };
  return document;
}

function systemDataOf(record: ResourceRecord): Record<string, string> {
  return {
    createdBy: 'azure-emulator',
    createdByType: 'Application',
    createdAt: record.createdAt,
    lastModifiedBy: 'azure-emulator',
    lastModifiedByType: 'Application',
    lastModifiedAt: record.modifiedAt,
  };
}
