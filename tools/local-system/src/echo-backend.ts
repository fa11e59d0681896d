import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the sample's backend answers: which member cluster served the request, and what it saw. */
export interface EchoAnswer {
  readonly cluster: string;
  readonly method: string;
  readonly path: string;
  readonly host: string;
  /** The X-Azure-FDID header Front Door (the edge) sent, for checking an origin lockdown. */
  readonly frontDoorId?: string;
}

export interface EchoBackend {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * The sample's backend for one member: the local stand-in of that member's pods behind its Service. It answers every
 * request with JSON naming its cluster, so a curl through the edge shows which member served it. Azure mode's echo
 * image (e2e/azure/echo) runs this same server in the members' pods, listening on all interfaces at a fixed port.
 */
export async function startEchoBackend(
  cluster: string,
  listen: { readonly host: string; readonly port: number } = { host: '127.0.0.1', port: 0 },
): Promise<EchoBackend> {
  const server: Server = createServer((request, response) => {
    const fdid = request.headers['x-azure-fdid'];
    const answer: EchoAnswer = {
      cluster,
      method: request.method ?? 'GET',
      path: request.url ?? '/',
      host: request.headers.host ?? '',
      ...(typeof fdid === 'string' ? { frontDoorId: fdid } : {}),
    };
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(`${JSON.stringify(answer)}\n`);
  });
  await new Promise<void>((resolve) => server.listen(listen.port, listen.host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: listen.host,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
