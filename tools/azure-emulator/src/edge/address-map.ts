export interface Target {
  host: string;
  port: number;
}

/**
 * Where the edge really connects for an origin address: emulated addresses (load balancer frontends, public IPs,
 * their DNS names) are mapped to local backends; anything unmapped is dialled as is (127.0.0.1, localhost).
 */
export class AddressMap {
  private readonly targets = new Map<string, Target>();

  map(address: string, port: number, target: Target): void {
    this.targets.set(key(address, port), target);
  }

  unmap(address: string, port: number): void {
    this.targets.delete(key(address, port));
  }

  resolve(address: string, port: number): Target {
    return this.targets.get(key(address, port)) ?? { host: address, port };
  }

  entries(): Array<{ address: string; target: Target }> {
    return [...this.targets.entries()].map(([address, target]) => ({ address, target }));
  }
}

function key(address: string, port: number): string {
  return `${address.toLowerCase()}:${port}`;
}

/** RFC 6761 §6.4: names under `.invalid` never resolve; the edge fails them at once, as a resolver answers NXDOMAIN. */
export function neverResolves(host: string): boolean {
  return /(^|\.)invalid\.?$/i.test(host);
}
