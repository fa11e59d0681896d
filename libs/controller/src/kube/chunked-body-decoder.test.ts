import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkedBodyDecoder } from './chunked-body-decoder.js';
import { cutAt } from '../test-support/byte-cuts.js';

/** Encodes `chunks` as an HTTP/1.1 chunked body, the sizes in either case, with extensions and trailers when asked. */
function encodeChunked(chunks: Uint8Array[], options: { upper: boolean; extensions: boolean; trailers: string[] }): Buffer {
  const parts: Buffer[] = [];
  for (const chunk of chunks) {
    const size = chunk.length.toString(16);
    parts.push(
      Buffer.from(`${options.upper ? size.toUpperCase() : size}${options.extensions ? ';name="v"' : ''}\r\n`, 'latin1'),
      Buffer.from(chunk),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`0\r\n${options.trailers.map((t) => `${t}\r\n`).join('')}\r\n`, 'latin1'));
  return Buffer.concat(parts);
}

function decodeAll(pieces: Buffer[]): { body: Buffer; done: boolean; ranges: number } {
  const received: Buffer[] = [];
  const decoder = new ChunkedBodyDecoder((buf, start, end) => received.push(Buffer.from(buf.subarray(start, end))));
  for (const piece of pieces) decoder.push(piece);
  return { body: Buffer.concat(received), done: decoder.done, ranges: received.length };
}

describe('ChunkedBodyDecoder', () => {
  it('gives back exactly the body however the encoded bytes are cut: inside a size line, its CRLF, the data, the trailers', () => {
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 300 }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.record({ upper: fc.boolean(), extensions: fc.boolean(), trailers: fc.array(fc.constantFrom('x-a: 1', 'grpc-status: 0'), { maxLength: 2 }) }),
        (chunks, offsets, options) => {
          const { body, done } = decodeAll(cutAt(encodeChunked(chunks, options), offsets));
          expect(body).toEqual(Buffer.concat(chunks));
          expect(done).toBe(true);
        },
      ),
    );
  });

  it('hands body bytes over as ranges of the buffer they came in, one per chunk when a buffer holds whole chunks', () => {
    const encoded = encodeChunked([Buffer.from('first'), Buffer.from('second'), Buffer.from('third')], { upper: false, extensions: false, trailers: [] });
    const seen: { same: boolean; text: string }[] = [];
    new ChunkedBodyDecoder((buf, start, end) => seen.push({ same: buf === encoded, text: buf.toString('utf8', start, end) })).push(encoded);
    expect(seen).toEqual([
      { same: true, text: 'first' },
      { same: true, text: 'second' },
      { same: true, text: 'third' },
    ]);
  });

  it('says where the body ended in the buffer, and is not done before its last chunk', () => {
    const decoder = new ChunkedBodyDecoder(() => {});
    const body = encodeChunked([Buffer.from('abc')], { upper: false, extensions: false, trailers: [] });
    expect(decoder.push(body.subarray(0, 8))).toBe(8);
    expect(decoder.done).toBe(false);
    expect(decoder.push(Buffer.concat([body.subarray(8), Buffer.from('HTTP/1.1 200 OK')]))).toBe(body.length - 8);
    expect(decoder.done).toBe(true);
  });

  it('refuses what is not chunked framing, naming what came', () => {
    expect(() => new ChunkedBodyDecoder(() => {}).push(Buffer.from('{"kind":"Status"}\r\n'))).toThrow(
      'chunked body: expected a hexadecimal chunk size, got "{\\"kind\\":\\"Status\\"}"',
    );
    expect(() => new ChunkedBodyDecoder(() => {}).push(Buffer.from('3\r\nabcX\r\n'))).toThrow('chunked body: expected CRLF after a chunk\'s data, got "X"');
    // A size past what a body of a watch could need is refused, not parsed into a huge count.
    expect(() => new ChunkedBodyDecoder(() => {}).push(Buffer.from('123456789\r\n'))).toThrow('chunked body: a chunk size of more than 8 hex digits');
    const endless = new ChunkedBodyDecoder(() => {});
    endless.push(Buffer.from('1;'));
    expect(() => endless.push(Buffer.alloc(9000, 0x78))).toThrow('chunked body: a chunk-size line longer than 8192 bytes');
    const endlessTrailer = new ChunkedBodyDecoder(() => {});
    endlessTrailer.push(Buffer.from('0\r\nx-a: '));
    expect(() => endlessTrailer.push(Buffer.alloc(9000, 0x78))).toThrow('chunked body: a trailer line longer than 8192 bytes');
    // As Go's net/http: size and trailer lines end at LF, a chunk's data in CRLF.
    expect(decodeAll([Buffer.from('3\nabc\r\n0\n\n')])).toMatchObject({ body: Buffer.from('abc'), done: true });
    expect(() => new ChunkedBodyDecoder(() => {}).push(Buffer.from('3\r\nabc\n'))).toThrow('chunked body: expected CRLF after a chunk\'s data, got "\\n"');
    expect(() => new ChunkedBodyDecoder(() => {}).push(Buffer.from('3\r\nabc\r\r'))).toThrow('chunked body: expected CRLF after a chunk\'s data, got "\\r"');
  });
});
