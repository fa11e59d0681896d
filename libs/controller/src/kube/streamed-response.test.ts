import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openOnOwnConnection, type StreamedResponse } from './streamed-response.js';

// The answers are written byte for byte by a local TCP server, so framings node:http would never produce (a head cut
// mid-line, a body that runs to the close, a malformed status line) can be sent on purpose.
let server: net.Server;
let port: number;
let answer: (socket: net.Socket) => Promise<void> = async () => {};
const requestHeads: string[] = [];

beforeAll(async () => {
  server = net.createServer((socket) => {
    socket.once('data', (head) => {
      requestHeads.push(head.toString('latin1'));
      void answer(socket).catch(() => socket.destroy());
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as net.AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function open(signal = new AbortController().signal): Promise<StreamedResponse> {
  return openOnOwnConnection({
    url: new URL(`http://127.0.0.1:${port}/api/v1/configmaps?watch=true`),
    headers: { accept: 'application/json', authorization: 'Bearer t' },
    tls: {},
    signal,
  });
}

/** Writes each piece as its own TCP segment, so the client sees the cuts. */
async function writePieces(socket: net.Socket, pieces: string[]): Promise<void> {
  for (const piece of pieces) {
    socket.write(piece);
    await sleep(5);
  }
}

async function bodyText(response: StreamedResponse): Promise<string> {
  return (await response.readBody()).toString('utf8');
}

describe('openOnOwnConnection', () => {
  it('sends a GET with the path, query, host and headers, and reads a chunked answer whose head is cut mid-line', async () => {
    answer = (socket) =>
      writePieces(socket, [
        'HTTP/1.1 200 OK\r\nContent-Ty',
        'pe: application/json\r\nTransfer-Encoding: chunked\r\nX-Two: a\r\nX-Two: b\r\n\r\n5\r\nhel',
        'lo\r\n',
        '6\r\n world\r\n0\r\n\r\n',
      ]);
    const response = await open();
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({ 'content-type': 'application/json', 'x-two': 'a, b' });
    expect(await bodyText(response)).toBe('hello world');
    expect(requestHeads.at(-1)).toBe(
      `GET /api/v1/configmaps?watch=true HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\naccept: application/json\r\nauthorization: Bearer t\r\n\r\n`,
    );
  });

  it('reads a body framed by content-length, and one that runs to the close', async () => {
    answer = (socket) => writePieces(socket, ['HTTP/1.1 403 Forbidden\r\nContent-Length: 12\r\n\r\n{"code":4', '03}']);
    const refused = await open();
    expect(refused.statusCode).toBe(403);
    expect(await bodyText(refused)).toBe('{"code":403}');
    answer = async (socket) => {
      await writePieces(socket, ['HTTP/1.1 500 Internal Server Error\r\n\r\nall of ', 'it']);
      socket.end();
    };
    const closeDelimited = await open();
    expect(await bodyText(closeDelimited)).toBe('all of it');
  });

  it('reads an empty body framed by content-length 0 without waiting for more', async () => {
    answer = (socket) => writePieces(socket, ['HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n']);
    expect(await bodyText(await open())).toBe('');
  });

  it('rejects a connection closed in the middle of a chunked body, after handing over what came', async () => {
    answer = async (socket) => {
      await writePieces(socket, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n8\r\nabc']);
      socket.destroy();
    };
    const response = await open();
    const seen: string[] = [];
    await expect(response.consume((buf, start, end) => seen.push(buf.toString('utf8', start, end)))).rejects.toThrow(
      'connection closed before the answer ended',
    );
    expect(seen.join('')).toBe('abcabc');
  });

  it('rejects an answer that is not HTTP/1.1, or in an encoding it did not ask for, naming what came', async () => {
    answer = (socket) => writePieces(socket, ['SSH-2.0-OpenSSH_9.2\r\n\r\n']);
    await expect(open()).rejects.toThrow('expected an HTTP/1.1 status line, got "SSH-2.0-OpenSSH_9.2"');
    answer = (socket) => writePieces(socket, ['HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 3\r\n\r\nabc']);
    await expect(open()).rejects.toThrow('an answer in content-encoding gzip, which was not asked for');
    answer = (socket) => writePieces(socket, ['HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n']);
    await expect(open()).rejects.toThrow('content-length "-1"; expected a number of bytes');
  });

  it('rejects with the abort reason when aborted before the head and while the body streams, and closes the connection', async () => {
    let serverSocket: net.Socket | undefined;
    answer = async (socket) => {
      serverSocket = socket;
    };
    const early = new AbortController();
    const opening = open(early.signal);
    await sleep(20);
    early.abort(new Error('stopped'));
    await expect(opening).rejects.toThrow('stopped');

    answer = async (socket) => {
      serverSocket = socket;
      await writePieces(socket, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n']);
    };
    const late = new AbortController();
    const response = await open(late.signal);
    const body = response.consume(() => late.abort('silent'));
    await expect(body).rejects.toMatchObject({ name: 'AbortError', message: 'aborted: silent' });
    await sleep(20);
    expect(serverSocket?.readableEnded || serverSocket?.destroyed).toBe(true);
  });

  it('keeps an abort that came before the body was read for the read, not as an unhandled error', async () => {
    answer = (socket) => writePieces(socket, ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n']);
    const controller = new AbortController();
    const response = await open(controller.signal);
    controller.abort(new Error('stopped before reading'));
    await sleep(20);
    await expect(response.consume(() => {})).rejects.toThrow('stopped before reading');
  });

  it('refuses a header that would break the request head, before connecting', async () => {
    const opened = requestHeads.length;
    const signal = new AbortController().signal;
    const url = new URL(`http://127.0.0.1:${port}/api`);
    await expect(openOnOwnConnection({ url, headers: { authorization: 'Bearer t\r\nx-admin: yes' }, tls: {}, signal })).rejects.toThrow(
      'header authorization holds a CR, LF or NUL; expected one line of text',
    );
    await expect(openOnOwnConnection({ url, headers: { 'bad name': 'v' }, tls: {}, signal })).rejects.toThrow('header name "bad name" is not an HTTP token');
    await sleep(20);
    expect(requestHeads.length).toBe(opened);
  });

  it('reads a body once', async () => {
    answer = (socket) => writePieces(socket, ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok']);
    const response = await open();
    expect(await bodyText(response)).toBe('ok');
    await expect(response.readBody()).rejects.toThrow('an answer body is read once');
  });
});
