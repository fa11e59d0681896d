import { refKey } from '@fleet-gateway/azure-frontdoor';
import { afdParent, type AfdResource } from './afd-resources.js';
import type { StatusNode } from './status-tree.js';

function summaryOf(resource: AfdResource): string {
  const arm =
    resource.presence === 'missing'
      ? ['planned, not in Azure']
      : [
          ...(resource.provisioningState !== undefined ? [`provisioningState ${resource.provisioningState}`] : []),
          ...(resource.deploymentStatus !== undefined ? [`deploymentStatus ${resource.deploymentStatus}`] : []),
          ...(resource.presence === 'extra' ? ['not planned'] : []),
        ];
  const write = resource.write
    ? [`the hub would ${resource.write.action} it${resource.write.changes.length > 0 ? ` (${resource.write.changes.join('; ')})` : ''}`]
    : [];
  return [...arm, ...write].join(', ');
}

function reasonsOf(resource: AfdResource): string[] {
  return [
    ...(resource.note !== undefined ? [resource.note] : []),
    ...(resource.state === 'pending' && resource.provisioningState === 'Succeeded' ? ['written; Front Door is still deploying it to the edge'] : []),
    ...(resource.write && resource.presence !== 'present' ? [resource.write.reason] : []),
  ];
}

/**
 * The Gateway's AFD resources as a subtree (pure): the profile at the root, each resource under the one that holds it
 * (routes under their endpoint, origins under their group, rules under their rule set, the rest under the profile),
 * each with ARM's provisioningState and deploymentStatus and the write the hub would send.
 */
export function afdTree(resources: readonly AfdResource[]): StatusNode | undefined {
  const nodes = new Map(
    resources.map((r) => {
      const node: StatusNode & { children: StatusNode[] } = {
        kind: 'AFD',
        name: r.resource,
        state: r.state,
        summary: summaryOf(r),
        reasons: reasonsOf(r),
        azure: {
          presence: r.presence,
          ...(r.provisioningState !== undefined ? { provisioningState: r.provisioningState } : {}),
          ...(r.deploymentStatus !== undefined ? { deploymentStatus: r.deploymentStatus } : {}),
          ...(r.write ? { write: r.write } : {}),
        },
        children: [],
      };
      return [refKey(r.ref), node];
    }),
  );
  const root = resources.find((r) => r.ref.kind === 'profile');
  if (!root) return undefined;
  const rootNode = nodes.get(refKey(root.ref))!;
  for (const r of resources) {
    const parent = afdParent(r.ref);
    if (!parent) continue;
    // A resource whose parent is not in the picture (an origin of a group the list lacks) hangs under the profile.
    (nodes.get(refKey(parent)) ?? rootNode).children.push(nodes.get(refKey(r.ref))!);
  }
  return rootNode;
}
