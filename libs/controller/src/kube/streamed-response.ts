import type http from 'node:http';
import net from 'node:net';
import tls from 'node:tls';
import { ChunkedBodyDecoder } from './chunked-body-decoder.js';

/** Receives body bytes [start, end) of `buf`; the buffer is only lent for the call. */
export type BodyDataHandler = (buf: Buffer, start: number, end: number) => void;

/** An answer whose body is read as it comes. */
export interface StreamedResponse {
  readonly statusCode: number;
  /** Lower-cased names; a repeated header's values joined with ", ". */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** Feeds the body to `onData` until it ends (resolves) or the connection breaks or is aborted (rejects). Once. */
  consume(onData: BodyDataHandler): Promise<void>;
  /** The whole body, for a refusal's Status or a request's answer. */
  readBody(): Promise<Buffer>;
}

/** A GET on a connection of its own; the TLS settings are those client-node's KubeConfig gives https. */
export interface OwnConnectionRequest {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly tls: tls.ConnectionOptions;
  readonly signal: AbortSignal;
}

const maxHeadBytes = 64 * 1024;
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Sends a GET on a connection of its own and reads the HTTP/1.1 answer straight off the socket, for watches. Node's
 * http client hands every chunk of a chunked body to JavaScript by itself, through its C++ parser and two streams;
 * the API server writes one chunk per watch event, so that path cost as much CPU as decoding the events
 * (libs/controller README). Here one socket read that holds many chunks is one callback. The connection is closed
 * when the body ends: a watch holds it to its end, and nothing else would reuse it.
 */
export function openOnOwnConnection(request: OwnConnectionRequest): Promise<StreamedResponse> {
  const { url, signal } = request;
  /** What errors name: the watch, not only the server. */
  const where = `${url.host}${url.pathname}`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const plain = url.protocol === 'http:';
  const port = Number(url.port) || (plain ? 80 : 443);
  const lines = [`GET ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(request.headers)) {
    // As node:http refuses them: a CR or LF in a credential would end the header and start another.
    if (!headerName.test(name)) return Promise.reject(new Error(`header name ${JSON.stringify(name)} is not an HTTP token`));
    if (/[\r\n\0]/.test(value)) return Promise.reject(new Error(`header ${name} holds a CR, LF or NUL; expected one line of text`));
    lines.push(`${name}: ${value}`);
  }
  const socket = plain
    ? net.connect({ host, port })
    : tls.connect({ ...request.tls, host, port, servername: request.tls.servername ?? (net.isIP(host) ? undefined : host) });
  // As node's keep-alive agent does: a peer that vanished is noticed even on a quiet watch.
  socket.setKeepAlive(true, 1000);
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  const abort = () => socket.destroy(abortError(signal));
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return new Promise((resolve, reject) => {
    let head: Buffer = Buffer.alloc(0);
    const fail = (error: Error) => {
      signal.removeEventListener('abort', abort);
      socket.destroy();
      reject(error);
    };
    const onClose = () => fail(signal.aborted ? abortError(signal) : new Error(`${where}: connection closed before the answer's head`));
    const onHead = (chunk: Buffer) => {
      head = head.length === 0 ? chunk : Buffer.concat([head, chunk]);
      const headEnd = head.indexOf('\r\n\r\n');
      if (headEnd < 0) {
        if (head.length > maxHeadBytes) fail(new Error(`${where}: an answer's head longer than ${maxHeadBytes} bytes`));
        return;
      }
      socket.off('data', onHead);
      socket.off('error', fail);
      socket.off('close', onClose);
      socket.pause();
      try {
        resolve(socketResponse(socket, where, head.toString('latin1', 0, headEnd), head.subarray(headEnd + 4), signal, abort));
      } catch (error) {
        fail(error as Error);
      }
    };
    socket.on('data', onHead);
    socket.on('error', fail);
    socket.on('close', onClose);
  });
}

function socketResponse(socket: net.Socket, where: string, headText: string, rest: Buffer, signal: AbortSignal, abort: () => void): StreamedResponse {
  const [statusLine = '', ...headerLines] = headText.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})(?: |$)/.exec(statusLine);
  if (!status) throw new Error(`expected an HTTP/1.1 status line, got ${JSON.stringify(statusLine.slice(0, 80))}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`expected a header line "name: value", got ${JSON.stringify(line.slice(0, 80))}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`;
  }
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') throw new Error(`an answer in content-encoding ${encoding}, which was not asked for`);
  const transfer = headers['transfer-encoding'];
  if (transfer !== undefined && !/^chunked$/i.test(transfer)) throw new Error(`transfer-encoding ${transfer}; expected chunked`);
  const lengthText = headers['content-length'];
  if (lengthText !== undefined && !/^\d+$/.test(lengthText)) throw new Error(`content-length ${JSON.stringify(lengthText)}; expected a number of bytes`);
  // RFC 9112 §6.3: chunked framing wins over a length; with neither, the body runs to the connection's close.
  const framing = transfer !== undefined ? 'chunked' : lengthText !== undefined ? Number(lengthText) : 'close';
  // Until the body is read, an error (a reset, an abort) is kept for it rather than left without a listener.
  let early: Error | undefined;
  const keepEarly = (error: Error) => (early ??= error);
  socket.on('error', keepEarly);
  let consumed = false;
  const consume = (onData: BodyDataHandler) => {
    if (consumed) return Promise.reject(new Error('an answer body is read once'));
    consumed = true;
    socket.off('error', keepEarly);
    return new Promise<void>((resolve, reject) => {
      let finished = false;
      const finish = (error?: Error) => {
        finished = true;
        signal.removeEventListener('abort', abort);
        socket.removeListener('data', onChunk);
        socket.destroy();
        if (error) reject(error);
        else resolve();
      };
      let feed: (buf: Buffer) => void;
      if (framing === 'chunked') {
        const decoder = new ChunkedBodyDecoder(onData);
        feed = (buf) => {
          decoder.push(buf);
          if (decoder.done) finish();
        };
      } else {
        let left = framing === 'close' ? Infinity : framing;
        feed = (buf) => {
          const end = Math.min(buf.length, left);
          if (end > 0) onData(buf, 0, end);
          left -= end;
          if (left === 0) finish();
        };
      }
      function onChunk(buf: Buffer) {
        try {
          feed(buf);
        } catch (error) {
          finish(error as Error);
        }
      }
      socket.on('error', finish);
      socket.on('close', () => {
        if (signal.aborted) finish(abortError(signal));
        else if (framing === 'close') finish();
        else finish(new Error(`${where}: connection closed before the answer ended`));
      });
      if (early) finish(early);
      else if (framing === 0) finish();
      else if (rest.length > 0) onChunk(rest);
      if (finished) return;
      socket.on('data', onChunk);
      socket.resume();
    });
  };
  return { statusCode: Number(status[1]), headers, consume, readBody: () => collect(consume) };
}

/** node:http's answer, read through the same interface (proxied clusters, and every request that is not a watch). */
export function incomingResponse(message: http.IncomingMessage): StreamedResponse {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(message.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const consume = (onData: BodyDataHandler) =>
    new Promise<void>((resolve, reject) => {
      message.on('data', (chunk: Buffer) => onData(chunk, 0, chunk.length));
      message.on('end', resolve);
      message.on('error', reject);
      message.on('aborted', () => reject(new Error('connection aborted before the answer ended')));
    });
  return { statusCode: message.statusCode ?? 0, headers, consume, readBody: () => collect(consume) };
}

async function collect(consume: (onData: BodyDataHandler) => Promise<void>): Promise<Buffer> {
  const parts: Buffer[] = [];
  await consume((buf, start, end) => parts.push(start === 0 && end === buf.length ? buf : Buffer.from(buf.subarray(start, end))));
  return Buffer.concat(parts);
}

function abortError(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new DOMException(`aborted: ${String(signal.reason)}`, 'AbortError');
}
