import http from 'node:http';
import https from 'node:https';
import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, KubeConfig } from '@kubernetes/client-node';
import { KubeApiError } from './kube-api-error.js';
import type { KubeStatus } from './kube-object.js';
import { decodeKubeObject, protobufMediaType, protobufWatchMediaType } from './protobuf/kube-protobuf.js';
import { requestRetry, type RequestRetryReason } from './request-retry.js';
import { incomingResponse, openOnOwnConnection, type StreamedResponse } from './streamed-response.js';

export type QueryParams = Readonly<Record<string, string | number | boolean | undefined>>;

/** The patch flavours the API server accepts; named so no caller types a media type by hand. */
export const patchContentTypes = {
  merge: 'application/merge-patch+json',
  apply: 'application/apply-patch+yaml',
  json: 'application/json-patch+json',
} as const;
export type PatchType = keyof typeof patchContentTypes;

export interface KubeClientOptions {
  /**
   * Bound on every non-watch request, its retries and their waits included, so a hung connection cannot stall a
   * reconcile forever. Default 30 s.
   */
  readonly requestTimeoutMs?: number;
  /** How many times a request answered 429, or 5xx with Retry-After, is sent again. Default 10 (client-go's); 0: never. */
  readonly maxRetries?: number;
  /** The longest Retry-After honoured; a longer one is cut to this. Default 10 s. */
  readonly maxRetryDelayMs?: number;
  /** Told of every retry (the client has no logger): ControllerMetrics.kubeClientObserver counts them. */
  readonly observer?: KubeClientObserver;
}

export interface KubeClientObserver {
  readonly retried: (reason: RequestRetryReason) => void;
}

export interface WatchHandlers {
  readonly onOpen?: () => void;
  readonly onLine: (line: string) => void;
}

export interface WatchFrameHandlers {
  readonly onOpen?: () => void;
  /**
   * One length-delimited protobuf frame (a metav1.WatchEvent): bytes [start, end) of `buf`. The buffer is only lent
   * for the call; decode what is needed before returning.
   */
  readonly onFrame: (buf: Buffer, start: number, end: number) => void;
}

interface RequestOptions {
  readonly query?: QueryParams;
  readonly body?: unknown;
  readonly contentType?: string;
  readonly accept?: string;
  readonly signal?: AbortSignal;
}

/** One request as it goes on the wire, the body encoded once so every attempt sends the same bytes. */
interface Outgoing {
  readonly method: string;
  readonly path: string;
  readonly query?: QueryParams;
  readonly body?: string;
  readonly contentType?: string;
  readonly accept: string;
  readonly signal: AbortSignal;
  /** A watch: read off a connection of its own (streamed-response.ts), unless the cluster is reached through a proxy. */
  readonly ownConnection?: boolean;
}

/**
 * A small JSON client over node:http(s) that takes credentials and TLS from a client-node KubeConfig (informers of
 * built-in kinds also read protobuf through it: `getProtobuf`, `watchFrames`); a watch reads its answer off a
 * connection of its own (streamed-response.ts) unless the cluster is reached through a proxy. It exists
 * because client-node 2.x's generated clients turn metadata timestamps into Date objects, pick a JSON-patch
 * content type for custom-object patches, and its Watch cannot be aborted before the response headers arrive. Here every object stays plain JSON, patch types are explicit, and watches are abortable from the
 * first byte.
 */
export class KubeClient {
  private readonly requestTimeoutMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryDelayMs: number;
  private readonly observer: KubeClientObserver | undefined;
  private agent: http.Agent | undefined;

  constructor(
    readonly kubeConfig: KubeConfig,
    options: KubeClientOptions = {},
  ) {
    if (!kubeConfig.getCurrentCluster()) throw new Error('kubeconfig has no current cluster; expected a current-context');
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.maxRetries = options.maxRetries ?? 10;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
    this.observer = options.observer;
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
    const text = (await this.requestBody(method, path, options)).toString('utf8');
    return (text ? JSON.parse(text) : undefined) as T;
  }

  /** The undecoded body of a successful GET, for a caller that acts on it before decoding it (a paged list). */
  async getText(path: string, query?: QueryParams, signal?: AbortSignal): Promise<string> {
    return (await this.requestBody('GET', path, { query, signal })).toString('utf8');
  }

  /** A successful GET's body as the API server's protobuf encoding (built-in kinds only; see kube-protobuf.ts). */
  getProtobuf(path: string, query?: QueryParams, signal?: AbortSignal): Promise<Buffer> {
    return this.requestBody('GET', path, { query, signal, accept: protobufMediaType });
  }

  private async requestBody(method: string, path: string, options: RequestOptions): Promise<Buffer> {
    const deadline = Date.now() + this.requestTimeoutMs;
    const timeout = AbortSignal.timeout(this.requestTimeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const response = await this.sendRetrying(outgoing(method, path, options, signal), deadline);
    const body = await response.readBody();
    if (response.statusCode < 200 || response.statusCode >= 300) throw errorOf(response, body, method, path);
    return body;
  }

  /**
   * Opens a watch, calls `onOpen` once the server accepted it and `onLine` with each newline-delimited JSON line.
   * Resolves when the server ends the stream, rejects on a non-200 answer (KubeApiError), a broken connection or
   * an abort of `signal`. A throttled open (429, or 5xx with Retry-After) is retried as any request is, before
   * `onOpen`; a watch has no request timeout, so only `maxRetries` and `signal` bound it.
   */
  async watch(path: string, query: QueryParams, handlers: WatchHandlers, signal: AbortSignal): Promise<void> {
    const response = await this.openWatch(path, query, 'application/json', signal);
    handlers.onOpen?.();
    const { onLine } = handlers;
    // The decoder carries a UTF-8 character split across chunks. A line spread over several chunks is joined once,
    // when its newline arrives: prepending the remainder to every chunk would copy a large object once per chunk.
    const utf8 = new StringDecoder('utf8');
    let pending: string[] = [];
    const emit = (line: string) => {
      // Whitespace between objects is skipped, as client-go's JSON stream decoder skips it.
      if (line.length > 1 || line.trim() !== '') onLine(line);
    };
    await response.consume((buf, begin, end) => {
      const chunk = utf8.write(buf.subarray(begin, end));
      let start = 0;
      let newline = chunk.indexOf('\n');
      if (newline >= 0 && pending.length > 0) {
        pending.push(chunk.slice(0, newline));
        emit(pending.join(''));
        pending = [];
        start = newline + 1;
        newline = chunk.indexOf('\n', start);
      }
      for (; newline >= 0; newline = chunk.indexOf('\n', start)) {
        emit(chunk.slice(start, newline));
        start = newline + 1;
      }
      if (start < chunk.length) pending.push(start === 0 ? chunk : chunk.slice(start));
    });
  }

  /**
   * The same as `watch`, in the API server's protobuf encoding: each event is a frame of a 4-byte big-endian length
   * and that many bytes (client-go's LengthDelimitedFramer). A frame is handed over as a range of the read it arrived
   * in; one split across reads is copied once, with only its own bytes, when the last of them arrives.
   */
  async watchFrames(path: string, query: QueryParams, handlers: WatchFrameHandlers, signal: AbortSignal): Promise<void> {
    const response = await this.openWatch(path, query, protobufWatchMediaType, signal);
    handlers.onOpen?.();
    const { onFrame } = handlers;
    /** A frame that did not fit its chunk, filled as the next chunks come; its length prefix at first, if split. */
    let partial: Buffer | undefined;
    /** The whole frame's size, prefix included; 0 while the prefix itself is incomplete. */
    let partialSize = 0;
    let partialFilled = 0;
    /** Copies bytes of `chunk` from `start` (up to `end`) into `partial` until it holds `upTo` bytes; returns where it stopped. */
    const fill = (chunk: Buffer, start: number, end: number, upTo: number) => {
      const copied = chunk.copy(partial!, partialFilled, start, Math.min(end, start + upTo - partialFilled));
      partialFilled += copied;
      return start + copied;
    };
    await response.consume((chunk, begin, end) => {
      let start = begin;
      if (partial) {
        if (partialSize === 0) {
          start = fill(chunk, start, end, 4);
          if (partialFilled < 4) return;
          partialSize = 4 + partial.readUInt32BE(0);
          const whole = Buffer.allocUnsafe(partialSize);
          partial.copy(whole, 0, 0, 4);
          partial = whole;
        }
        start = fill(chunk, start, end, partialSize);
        if (partialFilled < partialSize) return;
        onFrame(partial, 4, partialSize);
        partial = undefined;
      }
      while (end - start >= 4) {
        const frameEnd = start + 4 + chunk.readUInt32BE(start);
        if (frameEnd > end) break;
        onFrame(chunk, start + 4, frameEnd);
        start = frameEnd;
      }
      if (start < end) {
        const rest = end - start;
        partialSize = rest >= 4 ? 4 + chunk.readUInt32BE(start) : 0;
        partial = Buffer.allocUnsafe(Math.max(partialSize, 4));
        partialFilled = chunk.copy(partial, 0, start, end);
      }
    });
  }

  private async openWatch(path: string, query: QueryParams, accept: string, signal: AbortSignal): Promise<StreamedResponse> {
    const request = { ...outgoing('GET', path, { query: { ...query, watch: true }, accept }, signal), ownConnection: true };
    const response = await this.sendRetrying(request, Infinity);
    if (response.statusCode !== 200) throw errorOf(response, await response.readBody(), 'WATCH', path);
    return response;
  }

  /**
   * client-node builds a new agent, without keep-alive, for every request: a TLS handshake per call. Keep one
   * keep-alive agent with the same TLS settings instead (proxied clusters keep client-node's proxy agent).
   */
  private reusableAgent(cluster: Cluster, fresh: http.RequestOptions['agent']): http.RequestOptions['agent'] {
    if (cluster.proxyUrl || !(fresh instanceof http.Agent)) return fresh;
    this.agent ??= fresh instanceof https.Agent ? new https.Agent({ ...fresh.options, keepAlive: true }) : new http.Agent({ keepAlive: true });
    return this.agent;
  }

  /**
   * Sends the request, and again while the API server answers 429 (API Priority and Fairness sheds it) or a 5xx
   * with Retry-After, waiting what Retry-After says; the answer that ends the loop is returned unread. Every method
   * is resent, POST and PATCH too, as client-go does (rest/request.go `request()` resends any verb on such an
   * answer; only its retry of a broken connection is limited to GET, and only a streamed io.Reader body cannot be
   * resent, while every body here is one encoded string): the server refuses a throttled request before any handler
   * ran, so nothing was written, and a 5xx with Retry-After is the server asking for the resend. No resend once
   * `signal` fired (the wait rejects at once with an AbortError, as the transport does) or when the wait would end
   * past `deadline` — then the caller gets the 429.
   */
  private async sendRetrying(request: Outgoing, deadline: number): Promise<StreamedResponse> {
    for (let retries = 0; ; retries++) {
      const response = await this.send(request);
      const retry = retries < this.maxRetries ? requestRetry(response.statusCode, response.headers['retry-after'], this.maxRetryDelayMs) : undefined;
      if (!retry || Date.now() + retry.delayMs >= deadline) return response;
      // Read the refusal to its end so the keep-alive socket serves the next attempt.
      await response.readBody();
      this.observer?.retried(retry.reason);
      await sleep(retry.delayMs, undefined, { signal: request.signal });
    }
  }

  private async send(request: Outgoing): Promise<StreamedResponse> {
    const { method, body } = request;
    const cluster = this.kubeConfig.getCurrentCluster()!;
    const url = new URL(cluster.server.replace(/\/$/, '') + request.path);
    for (const [key, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    const requestOptions: https.RequestOptions = {};
    // Called per request: it also refreshes credentials (tokens from exec plugins, OIDC) into the headers.
    await this.kubeConfig.applyToHTTPSOptions(requestOptions);
    const headers: Record<string, string> = { ...(requestOptions.headers as Record<string, string> | undefined), accept: request.accept };
    if (request.ownConnection && !cluster.proxyUrl) {
      const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername, auth } = requestOptions;
      // What node:http does with a URL's or client-node's `auth` (a kubeconfig's username and password).
      if (auth) headers.authorization = `Basic ${Buffer.from(auth).toString('base64')}`;
      return openOnOwnConnection({ url, headers, tls: { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername }, signal: request.signal });
    }
    requestOptions.agent = this.reusableAgent(cluster, requestOptions.agent);
    if (body !== undefined) {
      headers['content-type'] = request.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(body));
    }
    const transport = url.protocol === 'http:' ? http : https;
    return new Promise((resolve, reject) => {
      const clientRequest = transport.request(url, { ...requestOptions, method, headers, signal: request.signal }, (message) =>
        resolve(incomingResponse(message)),
      );
      clientRequest.on('error', reject);
      clientRequest.end(body);
    });
  }
}

function outgoing(method: string, path: string, options: RequestOptions, signal: AbortSignal): Outgoing {
  const { query, body, contentType, accept = 'application/json' } = options;
  return { method, path, query, body: body === undefined ? undefined : JSON.stringify(body), contentType, accept, signal };
}

/** A refusal's Status comes in the encoding the request asked for. */
function errorOf(response: StreamedResponse, body: Buffer, method: string, path: string): KubeApiError {
  const { statusCode } = response;
  if (response.headers['content-type']?.startsWith(protobufMediaType)) {
    try {
      return KubeApiError.fromStatus(statusCode, decodeKubeObject<KubeStatus>(body), method, path);
    } catch {
      // Not a Status after all; the text below says what came.
    }
  }
  return KubeApiError.fromBody(statusCode, body.toString('utf8'), method, path);
}
