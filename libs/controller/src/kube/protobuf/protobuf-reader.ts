/** Protobuf wire types (https://protobuf.dev/programming-guides/encoding/#structure). */
export const wireType = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

const twoTo32 = 4294967296;

/** Node's Buffer has utf8Slice (undeclared in @types/node): UTF-8 from start to end, the bounds already checked. */
type BufferWithUtf8Slice = Buffer & { utf8Slice(start: number, end: number): string };

/**
 * A cursor over protobuf bytes. One reader walks a whole object; nested messages are read up to their end offset
 * rather than through sub-readers, so decoding allocates only what it returns.
 */
export class ProtobufReader {
  pos: number;

  constructor(
    readonly buf: Buffer,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  /** A varint that fits 32 bits: tags and lengths. */
  uint32(): number {
    const { buf } = this;
    let byte = buf[this.pos++]!;
    let value = byte & 0x7f;
    if (byte < 0x80) return value;
    byte = buf[this.pos++]!;
    value |= (byte & 0x7f) << 7;
    if (byte < 0x80) return value;
    byte = buf[this.pos++]!;
    value |= (byte & 0x7f) << 14;
    if (byte < 0x80) return value;
    byte = buf[this.pos++]!;
    value |= (byte & 0x7f) << 21;
    if (byte < 0x80) return value;
    byte = buf[this.pos++]!;
    value = (value | ((byte & 0x0f) << 28)) >>> 0;
    // A negative int32 is sign-extended to ten bytes; the rest carries no information for 32 bits.
    while (byte >= 0x80) byte = this.byteAt(this.pos++);
    return value;
  }

  /** A signed 64-bit varint (int32 and int64 fields) as a number; exact up to 2^53, as JSON numbers are. */
  int64(): number {
    let low = 0;
    let byte: number;
    for (let shift = 0; shift < 28; shift += 7) {
      byte = this.byteAt(this.pos++);
      low |= (byte & 0x7f) << shift;
      if (byte < 0x80) return low;
    }
    byte = this.byteAt(this.pos++);
    low |= (byte & 0x0f) << 28;
    let high = (byte & 0x7f) >> 4;
    // A negative value is sign-extended to ten bytes: five more for the high 32 bits.
    for (let shift = 3; byte >= 0x80 && shift < 32; shift += 7) {
      byte = this.byteAt(this.pos++);
      high |= (byte & 0x7f) << shift;
    }
    return (high | 0) * twoTo32 + (low >>> 0);
  }

  /** Reads a length prefix and returns where the delimited bytes end. */
  delimitedEnd(): number {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.end) throw new RangeError(`protobuf: a length of ${length} at offset ${this.pos} runs past the end (${this.end})`);
    return end;
  }

  string(): string {
    const end = this.delimitedEnd();
    // utf8Slice is what toString('utf8', start, end) calls after normalising its arguments, which these already are;
    // most of an object's strings are short, so that normalising is a fair share of their cost (protobufjs does so).
    const value = (this.buf as BufferWithUtf8Slice).utf8Slice(this.pos, end);
    this.pos = end;
    return value;
  }

  /**
   * A wrapper message whose field 1 holds raw bytes (runtime.RawExtension, metav1.FieldsV1), the reader at its length
   * prefix: what `read` makes of those bytes, or `absent` when the wrapper carries none.
   */
  unwrap<T>(read: (buf: Buffer, start: number, end: number) => T, absent: T): T {
    const end = this.delimitedEnd();
    let value = absent;
    while (this.pos < end) {
      const tag = this.uint32();
      if (tag !== 0x0a) {
        this.skip(tag & 7);
        continue;
      }
      const rawEnd = this.delimitedEnd();
      value = read(this.buf, this.pos, rawEnd);
      this.pos = rawEnd;
    }
    return value;
  }

  skip(type: number): void {
    switch (type) {
      case wireType.varint:
        while (this.byteAt(this.pos++) >= 0x80);
        return;
      case wireType.fixed64:
        this.pos += 8;
        return;
      case wireType.lengthDelimited:
        this.pos = this.delimitedEnd();
        return;
      case wireType.fixed32:
        this.pos += 4;
        return;
      default:
        throw new RangeError(`protobuf: wire type ${type} at offset ${this.pos} is not one Kubernetes writes`);
    }
  }

  private byteAt(offset: number): number {
    if (offset >= this.end) throw new RangeError(`protobuf: a varint runs past the end (${this.end})`);
    return this.buf[offset]!;
  }
}
