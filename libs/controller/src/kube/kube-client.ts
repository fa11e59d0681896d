import http from 'node:http';
import https from 'node:https';
import type { Cluster, KubeConfig } from '@kubernetes/client-node';
import { KubeApiError } from './kube-api-error.js';

export type QueryParams = Readonly<Record<string, string | number | boolean | undefined>>;

/** The patch flavours the API server accepts; named so no caller types a media type by hand. */
export const patchContentTypes = {
  merge: 'application/merge-patch+json',
  apply: 'application/apply-patch+yaml',
  json: 'application/json-patch+json',
} as const;
export type PatchType = keyof typeof patchContentTypes;

export interface KubeClientOptions {
  /** Bound on every non-watch request, so a hung connection cannot stall a reconcile forever. Default 30 s. */
  readonly requestTimeoutMs?: number;
}

export interface WatchHandlers {
  readonly onOpen?: () => void;
  readonly onLine: (line: string) => void;
}

interface RequestOptions {
  readonly query?: QueryParams;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly signal?: AbortSignal;
}

/**
 * A small JSON client over node:http(s) that takes credentials and TLS from a client-node KubeConfig. It exists
 * because client-node 2.x's generated clients turn metadata timestamps into Date objects, pick a JSON-patch
 * content type for custom-object patches, and its Watch cannot be aborted before the response headers arrive. Here every object stays plain JSON, patch types are explicit, and watches are abortable from the
 * first byte.
 */
export class KubeClient {
  private readonly requestTimeoutMs: number;
  private agent: http.Agent | undefined;

  constructor(
    readonly kubeConfig: KubeConfig,
    options: KubeClientOptions = {},
  ) {
    if (!kubeConfig.getCurrentCluster()) throw new Error('kubeconfig has no current cluster; expected a current-context');
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
  }

  get<T>(path: string, query?: QueryParams, signal?: AbortSignal): Promise<T> {
    return this.request<T>('GET', path, { query, signal });
  }

  create<T>(path: string, body: unknown, query?: QueryParams): Promise<T> {
    return this.request<T>('POST', path, { body, query });
  }

  replace<T>(path: string, body: unknown, query?: QueryParams): Promise<T> {
    return this.request<T>('PUT', path, { body, query });
  }

  patch<T>(path: string, body: unknown, type: PatchType, query?: QueryParams): Promise<T> {
    return this.request<T>('PATCH', path, { body, contentType: patchContentTypes[type], query });
  }

  delete<T>(path: string, query?: QueryParams): Promise<T> {
    return this.request<T>('DELETE', path, { query });
  }

  async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const text = await this.requestText(method, path, options);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The undecoded body of a successful GET, for a caller that acts on it before decoding it (a paged list). */
  getText(path: string, query?: QueryParams, signal?: AbortSignal): Promise<string> {
    return this.requestText('GET', path, { query, signal });
  }

  private async requestText(method: string, path: string, options: RequestOptions): Promise<string> {
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const response = await this.send(method, path, { ...options, signal });
    const text = await readBody(response);
    if (response.statusCode === undefined || response.statusCode < 200 || response.statusCode >= 300) {
      throw KubeApiError.fromBody(response.statusCode ?? 0, text, method, path);
    }
    return text;
  }

  /**
   * Opens a watch, calls `onOpen` once the server accepted it and `onLine` with each newline-delimited JSON line.
   * Resolves when the server ends the stream, rejects on a non-200 answer (KubeApiError), a broken connection or
   * an abort of `signal`.
   */
  async watch(path: string, query: QueryParams, handlers: WatchHandlers, signal: AbortSignal): Promise<void> {
    const response = await this.send('GET', path, { query: { ...query, watch: true }, signal });
    if (response.statusCode !== 200) {
      throw KubeApiError.fromBody(response.statusCode ?? 0, await readBody(response), 'WATCH', path);
    }
    handlers.onOpen?.();
    const { onLine } = handlers;
    // Lines are cut from the bytes and decoded one by one: a newline byte never occurs inside a UTF-8 sequence, so
    // no decoder has to carry a split character across chunks. A line spread over chunks is joined once, when its
    // newline arrives (joining at every chunk would copy a large object's bytes once per chunk).
    let pending: Buffer[] = [];
    const emit = (bytes: Buffer, start: number, end: number) => {
      // Whitespace between objects is skipped, as client-go's JSON stream decoder skips it.
      if (end - start > 1 || (end - start === 1 && bytes[start]! > 0x20)) onLine(bytes.toString('utf8', start, end));
    };
    await new Promise<void>((resolve, reject) => {
      response.on('data', (chunk: Buffer) => {
        let start = 0;
        let newline = chunk.indexOf(0x0a);
        if (newline >= 0 && pending.length > 0) {
          const line = Buffer.concat([...pending, chunk.subarray(0, newline)]);
          pending = [];
          emit(line, 0, line.length);
          start = newline + 1;
          newline = chunk.indexOf(0x0a, start);
        }
        for (; newline >= 0; newline = chunk.indexOf(0x0a, start)) {
          emit(chunk, start, newline);
          start = newline + 1;
        }
        if (start < chunk.length) pending.push(start === 0 ? chunk : chunk.subarray(start));
      });
      response.on('end', resolve);
      response.on('error', reject);
      response.on('aborted', () => reject(new Error(`watch ${path}: connection aborted`)));
    });
  }

  /**
   * client-node builds a new agent, without keep-alive, for every request: a TLS handshake per call. Keep one
   * keep-alive agent with the same TLS settings instead (proxied clusters keep client-node's proxy agent).
   */
  private reusableAgent(cluster: Cluster, fresh: http.RequestOptions['agent']): http.RequestOptions['agent'] {
    if (cluster.proxyUrl || !(fresh instanceof http.Agent)) return fresh;
    this.agent ??=
      fresh instanceof https.Agent ? new https.Agent({ ...fresh.options, keepAlive: true }) : new http.Agent({ keepAlive: true });
    return this.agent;
  }

  private async send(method: string, path: string, options: RequestOptions): Promise<http.IncomingMessage> {
    const cluster = this.kubeConfig.getCurrentCluster()!;
    const url = new URL(cluster.server.replace(/\/$/, '') + path);
    for (const [key, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const requestOptions: https.RequestOptions = {};
    // Called per request: it also refreshes credentials (tokens from exec plugins, OIDC) into the headers.
    await this.kubeConfig.applyToHTTPSOptions(requestOptions);
    requestOptions.agent = this.reusableAgent(cluster, requestOptions.agent);
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: http.OutgoingHttpHeaders = {
      ...(requestOptions.headers as http.OutgoingHttpHeaders | undefined),
      accept: 'application/json',
      ...(body === undefined
        ? {}
        : { 'content-type': options.contentType ?? 'application/json', 'content-length': Buffer.byteLength(body) }),
    };
    const transport = url.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      const request = transport.request(url, { ...requestOptions, method, headers, signal: options.signal }, resolve);
      request.on('error', reject);
      request.end(body);
    });
  }
}

function readBody(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.on('error', reject);
  });
}
