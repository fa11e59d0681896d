import type { KubeClient, KubeList, KubeObject } from '@fleet-gateway/controller';
import { collectionPath } from '@fleet-gateway/controller';
import { nodes } from './member-resources.js';
import type { PublicIpDnsZone } from './public-origin.js';

/** The well-known node label AKS sets to the cluster's region (e.g. eastus2). */
export const REGION_LABEL = 'topology.kubernetes.io/region';

/** Each Azure cloud's public IP DNS suffix (cloud-provider-azure pkg/azclient/cloud.go ResourceManagerVMDNSSuffix). */
export const CLOUD_DNS_SUFFIXES = {
  AzurePublicCloud: 'cloudapp.azure.com',
  AzureUSGovernmentCloud: 'cloudapp.usgovcloudapi.net',
  AzureChinaCloud: 'cloudapp.chinacloudapi.cn',
} as const;

export interface ClusterRegionOptions {
  readonly client: KubeClient;
  /** The region when the agent knows it (e.g. `location` of the cloud config); otherwise read from a node label. */
  readonly region?: string;
  readonly dnsZoneSuffix?: string;
  /** How long "no node carries the label" is believed before asking again. Default 60 s. */
  readonly missRecheckMs?: number;
  readonly now?: () => number;
}

/**
 * The cluster's Azure region, for public IP FQDNs: the configured one, else the `topology.kubernetes.io/region` label
 * of a node (one list of at most one node, remembered once found; a miss or a failed read is asked again after a
 * minute). An AKS cluster lives in one region, so any node answers.
 */
export class ClusterRegion {
  private found: string | undefined;
  private missedAt: number | undefined;
  private missReason = '';
  private readonly dnsZoneSuffix: string;
  private readonly now: () => number;

  constructor(private readonly options: ClusterRegionOptions) {
    this.found = options.region || undefined;
    this.dnsZoneSuffix = options.dnsZoneSuffix ?? CLOUD_DNS_SUFFIXES.AzurePublicCloud;
    this.now = options.now ?? Date.now;
  }

  /** Never fails: a region that cannot be read is unknown (and says why), so the IP is published instead of the FQDN. */
  async zone(signal?: AbortSignal): Promise<PublicIpDnsZone> {
    if (this.found) return { region: this.found, dnsZoneSuffix: this.dnsZoneSuffix };
    if (this.missedAt !== undefined && this.now() - this.missedAt < (this.options.missRecheckMs ?? 60_000)) return this.unknown();
    try {
      const list = await this.options.client.get<KubeList<KubeObject>>(collectionPath(nodes), { labelSelector: REGION_LABEL, limit: 1 }, signal);
      this.found = list.items[0]?.metadata.labels?.[REGION_LABEL] || undefined;
      this.missReason = `no region was configured and no node carries the label ${REGION_LABEL}`;
    } catch (error) {
      this.missReason = `no region was configured and the nodes' ${REGION_LABEL} label could not be read: ${(error as Error).message}`;
    }
    this.missedAt = this.found ? undefined : this.now();
    return this.found ? { region: this.found, dnsZoneSuffix: this.dnsZoneSuffix } : this.unknown();
  }

  private unknown(): PublicIpDnsZone {
    return { region: undefined, unknownBecause: this.missReason, dnsZoneSuffix: this.dnsZoneSuffix };
  }
}
