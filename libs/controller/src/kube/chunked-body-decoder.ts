const cr = 0x0d;
const lf = 0x0a;

/** Where the decoder stands; a chunk's size, CRLFs and trailers may each be split across buffers. */
const enum At {
  /** The hex digits of a chunk's size. */
  Size,
  /** A chunk extension (`;name=value`) or whitespace after the size, up to the line's LF. */
  SizeRest,
  Data,
  /** The CR, then the LF, that end a chunk's data. */
  DataCr,
  DataLf,
  /** A trailer line (after the last chunk), up to its LF; an empty one ends the body. */
  Trailer,
  Done,
}

/**
 * Decodes an HTTP/1.1 chunked body (RFC 9112 §7.1) as its bytes arrive, handing each run of body bytes to `onData`
 * as a range of the buffer it came in, without copying. Chunk extensions are skipped; trailers are read and
 * dropped. As Go's net/http reads it, a chunk's data must end in CRLF, while a size or trailer line ends at its LF.
 * Framing is read byte by byte, with no string made: the API server sends one chunk per watch event, so
 * this runs tens of thousands of times a second. Throws on anything that is not chunked framing, naming what came.
 */
export class ChunkedBodyDecoder {
  private at = At.Size;
  /** Body bytes left in the current chunk, or the size read so far. */
  private remaining = 0;
  private sizeDigits = 0;
  /** Bytes of the current size or trailer line, against a line that never ends. */
  private lineLength = 0;
  private trailerEmpty = true;

  constructor(private readonly onData: (buf: Buffer, start: number, end: number) => void) {}

  /** Whether the last chunk and its trailers have been read: the body is complete. */
  get done(): boolean {
    return this.at === At.Done;
  }

  /** Feeds the next bytes of the body; returns where in `buf` the body ended (buf.length while it goes on). */
  push(buf: Buffer): number {
    let pos = 0;
    const length = buf.length;
    while (pos < length) {
      switch (this.at) {
        case At.Data: {
          const end = Math.min(length, pos + this.remaining);
          this.onData(buf, pos, end);
          this.remaining -= end - pos;
          pos = end;
          if (this.remaining === 0) this.at = At.DataCr;
          break;
        }
        case At.Size: {
          const byte = buf[pos++]!;
          const digit = hexValue(byte);
          if (digit >= 0) {
            if (++this.sizeDigits > maxSizeDigits) throw new Error(`chunked body: a chunk size of more than ${maxSizeDigits} hex digits`);
            this.remaining = this.remaining * 16 + digit;
          } else if (this.sizeDigits === 0) {
            throw new Error(`chunked body: expected a hexadecimal chunk size, got ${describe(buf, pos - 1)}`);
          } else if (byte === lf) {
            this.endSizeLine();
          } else {
            this.at = At.SizeRest;
            this.lineLength = 0;
          }
          break;
        }
        case At.SizeRest: {
          const byte = buf[pos++]!;
          if (byte === lf) this.endSizeLine();
          else if (++this.lineLength > maxLineLength) throw new Error(`chunked body: a chunk-size line longer than ${maxLineLength} bytes`);
          break;
        }
        case At.DataCr:
        case At.DataLf: {
          const byte = buf[pos++]!;
          if (byte === cr && this.at === At.DataCr) this.at = At.DataLf;
          else if (byte === lf && this.at === At.DataLf) this.at = At.Size;
          else throw new Error(`chunked body: expected CRLF after a chunk's data, got ${describe(buf, pos - 1)}`);
          break;
        }
        case At.Trailer: {
          const byte = buf[pos++]!;
          if (byte === lf) {
            if (this.trailerEmpty) this.at = At.Done;
            this.trailerEmpty = true;
            this.lineLength = 0;
          } else if (byte !== cr) {
            this.trailerEmpty = false;
            if (++this.lineLength > maxLineLength) throw new Error(`chunked body: a trailer line longer than ${maxLineLength} bytes`);
          }
          break;
        }
        case At.Done:
          return pos;
      }
    }
    return pos;
  }

  private endSizeLine(): void {
    this.at = this.remaining === 0 ? At.Trailer : At.Data;
    this.sizeDigits = 0;
  }
}

/** 4 GiB less a byte: more than any body a watch sends, and exact in a double. */
const maxSizeDigits = 8;
const maxLineLength = 8192;

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  const lower = byte | 0x20;
  if (lower >= 0x61 && lower <= 0x66) return lower - 0x61 + 10;
  return -1;
}

/** The bytes from `at`, as text an error message can show. */
function describe(buf: Buffer, at: number): string {
  return JSON.stringify(buf.toString('latin1', at, Math.min(buf.length, at + 40)).split('\r\n', 1)[0]);
}
