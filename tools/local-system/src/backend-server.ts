import { createServer } from 'node:http';

/** What the `backend` command asks of the Azure side: send the edge's traffic for a member Service's port to target. */
export interface BackendMapping {
  member: string;
  namespace: string;
  name: string;
  port: number;
  target: { host: string; port: number };
}

function parseMapping(text: string): BackendMapping | undefined {
  try {
    const body = JSON.parse(text) as Partial<BackendMapping>;
    const { member, namespace, name, port, target } = body;
    const valid =
      [member, namespace, name, target?.host].every((v) => typeof v === 'string' && v !== '') && Number.isInteger(port) && Number.isInteger(target?.port);
    return valid ? (body as BackendMapping) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `backend` command's way into the Azure side (127.0.0.1 only): `PUT /backends` hands the mapping to the member's
 * cloud-provider stand-in (`setBackend`), which keeps it across the Service's reconciles and address changes — a
 * mapping made in the emulator's edge directly would be taken back by the stand-in's next reconcile (its default
 * echo backend). `apply` returns an error message for a mapping it cannot take.
 */
export async function startBackendServer(apply: (mapping: BackendMapping) => string | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const reply = (status: number, body: object): void => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(body));
      };
      if (request.method !== 'PUT' || request.url !== '/backends') return reply(404, { error: 'only PUT /backends' });
      const mapping = parseMapping(text);
      if (mapping === undefined) return reply(400, { error: 'expected { member, namespace, name, port, target: { host, port } }' });
      const error = apply(mapping);
      return error === undefined ? reply(200, {}) : reply(404, { error });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
