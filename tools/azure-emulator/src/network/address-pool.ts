/**
 * Hands out IPv4 addresses for load balancer frontends, Private Link NAT IPs and public IPs.
 * Subnets are not modelled: private addresses come from 10.224.0.0/12 (AKS's default node subnet range),
 * public ones from 20.50.0.0/16.
 */
export class AddressPool {
  private readonly used = new Set<string>();
  private nextPrivate = ipToNumber('10.224.0.4');
  private nextPublic = ipToNumber('20.50.0.1');

  allocatePrivate(): string {
    const address = this.nextFree(() => this.nextPrivate++);
    return address;
  }

  allocatePublic(): string {
    return this.nextFree(() => this.nextPublic++);
  }

  /** Claims a specific (static) address; false when it is already taken. */
  claim(address: string): boolean {
    if (this.used.has(address)) return false;
    this.used.add(address);
    return true;
  }

  isUsed(address: string): boolean {
    return this.used.has(address);
  }

  release(address: string | undefined): void {
    if (address !== undefined) this.used.delete(address);
  }

  private nextFree(advance: () => number): string {
    for (;;) {
      const candidate = numberToIp(advance());
      if (!this.used.has(candidate)) {
        this.used.add(candidate);
        return candidate;
      }
    }
  }
}

function ipToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function numberToIp(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}
