import { Agent, request } from 'node:https';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * A minimal keep-alive HTTPS client for the emulator's ARM endpoint (tests of wire details and the benchmark;
 * the SDK clients are what the agents use).
 */
export class RawArmClient {
  private readonly agent: Agent;

  constructor(
    private readonly endpoint: string,
    caCertificate: string,
    maxSockets = 16,
  ) {
    this.agent = new Agent({ ca: caCertificate, keepAlive: true, maxSockets });
  }

  send(method: string, pathAndQuery: string, body?: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        new URL(pathAndQuery, this.endpoint),
        {
          method,
          agent: this.agent,
          headers: {
            authorization: 'Bearer raw-client',
            ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
            ...headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text === '' ? undefined : (JSON.parse(text) as unknown) });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
