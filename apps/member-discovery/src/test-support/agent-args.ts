// Test-only (the app's tests and benchmarks, never main.ts): the member agent's command lines.

/** Loopback only, so /metrics is asked for in plain HTTP (the secure default is tested with the chart's RBAC in tools/charts-test). */
export const LOCAL_SERVING = ['--health-probe-bind-address', '127.0.0.1:0', '--metrics-bind-address', '127.0.0.1:0', '--metrics-secure=false'];

export interface DiscoveryTarget {
  readonly subscriptionId: string;
  readonly nodeResourceGroup: string;
  /** The emulator's ARM endpoint; default Azure's. */
  readonly armEndpoint?: string;
}

/** The member on its scoped hub kubeconfig, without leader election, with Private Link discovery on in `target`. */
export function discoveryArgs(member: string, hubKubeconfig: string, target: DiscoveryTarget): string[] {
  return [
    '--member-cluster-name',
    member,
    '--hub-kubeconfig',
    hubKubeconfig,
    '--enable-private-link-origin-discovery',
    '--azure-subscription-id',
    target.subscriptionId,
    '--node-resource-group',
    target.nodeResourceGroup,
    ...(target.armEndpoint ? ['--arm-endpoint', target.armEndpoint] : []),
    '--leader-elect=false',
  ];
}
