import type { V1Service } from '@kubernetes/client-node';

/** The AKS (cloud-provider-azure) Service annotations the stand-in honours. */
export const ANNOTATIONS = {
  internal: 'service.beta.kubernetes.io/azure-load-balancer-internal',
  internalSubnet: 'service.beta.kubernetes.io/azure-load-balancer-internal-subnet',
  dnsLabelName: 'service.beta.kubernetes.io/azure-dns-label-name',
  plsCreate: 'service.beta.kubernetes.io/azure-pls-create',
  plsName: 'service.beta.kubernetes.io/azure-pls-name',
  plsResourceGroup: 'service.beta.kubernetes.io/azure-pls-resource-group',
  plsVisibility: 'service.beta.kubernetes.io/azure-pls-visibility',
  plsAutoApproval: 'service.beta.kubernetes.io/azure-pls-auto-approval',
  plsIpConfigurationSubnet: 'service.beta.kubernetes.io/azure-pls-ip-configuration-subnet',
  plsIpConfigurationCount: 'service.beta.kubernetes.io/azure-pls-ip-configuration-ip-address-count',
  plsFqdns: 'service.beta.kubernetes.io/azure-pls-fqdns',
  plsProxyProtocol: 'service.beta.kubernetes.io/azure-pls-proxy-protocol',
} as const;

/** cloud-provider-azure's tag keys (pkg/consts). */
export const TAGS = {
  clusterName: 'k8s-azure-cluster-name',
  ownerService: 'k8s-azure-owner-service',
  service: 'k8s-azure-service',
} as const;

export interface CloudSettings {
  subscriptionId: string;
  /** The node resource group (MC_...), where AKS puts load balancers, public IPs and, by default, PLSs. */
  resourceGroup: string;
  location: string;
  /** cloud-provider-azure's cluster name: names the load balancers `<cluster>` and `<cluster>-internal`. */
  clusterName: string;
  vnetName: string;
  subnetName: string;
}

export interface PrivateLinkPlan {
  name: string;
  resourceGroup: string;
  visibility: string[];
  autoApproval: string[];
  ipConfigurationCount: number;
  subnet: string;
  fqdns: string[];
  proxyProtocol: boolean;
}

export interface LoadBalancerPlan {
  /** `<ns>/<name>`, as the tags carry it. */
  serviceName: string;
  internal: boolean;
  loadBalancerName: string;
  /** cloud-provider-azure's default frontend name: "a" + the Service UID without dashes, at most 32 characters. */
  frontendName: string;
  subnet: string;
  publicIpName?: string;
  dnsLabel?: string;
  privateLink?: PrivateLinkPlan;
  ports: Array<{ port: number; protocol: string }>;
}

const isTrue = (value: string | undefined): boolean => value?.trim().toLowerCase() === 'true';
const list = (value: string | undefined): string[] =>
  (value ?? '')
    .split(' ')
    .map((item) => item.trim())
    .filter((item) => item !== '');

/** What AKS would build for a LoadBalancer Service; throws naming the annotation when one is invalid. */
export function planLoadBalancer(service: V1Service, settings: CloudSettings): LoadBalancerPlan {
  const annotations = service.metadata?.annotations ?? {};
  const internal = isTrue(annotations[ANNOTATIONS.internal]);
  const frontendName = `a${String(service.metadata?.uid ?? '').replace(/-/g, '')}`.slice(0, 32);
  const subnet = (internal && annotations[ANNOTATIONS.internalSubnet]?.trim()) || settings.subnetName;
  const plan: LoadBalancerPlan = {
    serviceName: `${service.metadata?.namespace}/${service.metadata?.name}`,
    internal,
    loadBalancerName: internal ? `${settings.clusterName}-internal` : settings.clusterName,
    frontendName,
    subnet,
    ports: (service.spec?.ports ?? []).map((port) => ({ port: port.port, protocol: port.protocol ?? 'TCP' })),
  };
  if (!internal) {
    plan.publicIpName = `${settings.clusterName}-${frontendName}`;
    const label = annotations[ANNOTATIONS.dnsLabelName]?.trim();
    if (label) plan.dnsLabel = label;
  }
  if (isTrue(annotations[ANNOTATIONS.plsCreate])) {
    if (!internal) {
      throw new Error(`${ANNOTATIONS.plsCreate}: a Private Link Service needs an internal load balancer (${ANNOTATIONS.internal}: "true").`);
    }
    const countText = annotations[ANNOTATIONS.plsIpConfigurationCount];
    const count = countText === undefined ? 1 : Number(countText);
    if (!Number.isInteger(count) || count < 1 || count > 8) {
      throw new Error(`${ANNOTATIONS.plsIpConfigurationCount} must be an integer from 1 to 8; got '${countText}'.`);
    }
    plan.privateLink = {
      name: annotations[ANNOTATIONS.plsName]?.trim() || `pls-${frontendName}`,
      resourceGroup: annotations[ANNOTATIONS.plsResourceGroup]?.trim() || settings.resourceGroup,
      visibility: list(annotations[ANNOTATIONS.plsVisibility]),
      autoApproval: list(annotations[ANNOTATIONS.plsAutoApproval]),
      ipConfigurationCount: count,
      subnet: annotations[ANNOTATIONS.plsIpConfigurationSubnet]?.trim() || subnet,
      fqdns: list(annotations[ANNOTATIONS.plsFqdns]),
      proxyProtocol: isTrue(annotations[ANNOTATIONS.plsProxyProtocol]),
    };
  }
  return plan;
}
