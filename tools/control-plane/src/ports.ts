import { createServer, type AddressInfo, type Server } from 'node:net';

/**
 * `count` loopback ports the kernel says are free now: all bound at once and then released, so they are distinct
 * (one at a time, the kernel may hand out a port just released).
 */
export async function freePorts(count: number): Promise<number[]> {
  const listening = (): Promise<Server> =>
    new Promise((resolve, reject) => {
      const server = createServer();
      server.unref();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
  const servers = await Promise.all(Array.from({ length: count }, listening));
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}
