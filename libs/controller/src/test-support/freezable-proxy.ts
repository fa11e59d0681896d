import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay in front of the API server that can go silent: `freeze()` stops forwarding bytes on every open
 * connection while keeping the sockets open — what a dead NAT entry or a half-open connection looks like to a
 * client. Connections opened after the freeze work normally.
 */
export class FreezableProxy {
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  private readonly frozen: net.Socket[] = [];
  private readonly server: net.Server;

  private constructor(private readonly target: { host: string; port: number }) {
    this.server = net.createServer((client) => this.relay(client));
  }

  static async start(target: { host: string; port: number }): Promise<FreezableProxy> {
    const proxy = new FreezableProxy(target);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Stops forwarding on every current connection; returns how many were frozen. */
  freeze(): number {
    for (const { client, upstream } of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      this.frozen.push(client, upstream);
    }
    const frozen = this.pairs.size;
    this.pairs.clear();
    return frozen;
  }

  private relay(client: net.Socket): void {
    const upstream = net.connect(this.target.port, this.target.host);
    const pair = { client, upstream };
    this.pairs.add(pair);
    client.pipe(upstream);
    upstream.pipe(client);
    const close = () => {
      this.pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  }

  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const { client, upstream } of this.pairs) this.frozen.push(client, upstream);
      for (const socket of this.frozen) socket.destroy();
    });
  }
}
