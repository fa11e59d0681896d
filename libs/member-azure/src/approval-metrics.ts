import { Gauge, type Registry } from 'prom-client';

/**
 * The member's Private Link approval gauge, computed at scrape time from the last observation of each exported
 * Service: connections left Pending as a possible impersonation (a second connection carries the same hub message).
 */
export class PrivateLinkApprovalMetrics {
  private readonly suspects = new Map<string, number>();

  constructor(registry: Registry) {
    const suspects = this.suspects;
    new Gauge({
      name: 'fleet_member_private_link_possible_impersonations',
      help: 'Private endpoint connections left Pending because another connection carries the same hub request message',
      registers: [registry],
      collect() {
        this.set([...suspects.values()].reduce((sum, count) => sum + count, 0));
      },
    });
  }

  record(serviceKey: string, suspectConnections: number): void {
    if (suspectConnections === 0) this.suspects.delete(serviceKey);
    else this.suspects.set(serviceKey, suspectConnections);
  }

  forget(serviceKey: string): void {
    this.suspects.delete(serviceKey);
  }
}
