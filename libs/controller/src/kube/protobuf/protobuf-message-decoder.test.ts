import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInSchema } from './built-in-schema.generated.js';
import { ProtobufMessageDecoder } from './protobuf-message-decoder.js';
import { ProtobufReader } from './protobuf-reader.js';

// A minimal protobuf writer, for messages the API server would not send (absent fields, unknown fields, negative
// numbers); what it does send is compared with its JSON in kube-protobuf.real-api.test.ts.
const varint = (value: bigint): number[] => {
  let v = BigInt.asUintN(64, value);
  const bytes: number[] = [];
  do {
    const byte = Number(v & 0x7fn);
    v >>= 7n;
    bytes.push(v > 0n ? byte | 0x80 : byte);
  } while (v > 0n);
  return bytes;
};
const tag = (field: number, wire: number) => varint(BigInt((field << 3) | wire));
const int = (field: number, value: number | bigint) => [...tag(field, 0), ...varint(BigInt(value))];
const bytes = (field: number, content: number[] | string) => {
  const payload = typeof content === 'string' ? [...Buffer.from(content, 'utf8')] : content;
  return [...tag(field, 2), ...varint(BigInt(payload.length)), ...payload];
};

const decoder = new ProtobufMessageDecoder(builtInSchema);
const decode = (message: string, content: number[]) => {
  const buf = Buffer.from(content);
  return decoder.decodeInto({}, new ProtobufReader(buf), buf.length, message);
};

describe('ProtobufReader', () => {
  it('reads every int64 a JSON number holds exactly, negative ones sign-extended to ten bytes', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 53n) + 1n, max: 2n ** 53n - 1n }), (value) => {
        const buf = Buffer.from(varint(value));
        const reader = new ProtobufReader(buf);
        expect(reader.int64()).toBe(Number(value));
        expect(reader.pos).toBe(buf.length);
      }),
    );
  });

  it('reads a negative int32 as a 32-bit length or tag would never be, without running past it', () => {
    const buf = Buffer.from([...varint(-1n), 0x2a]);
    const reader = new ProtobufReader(buf);
    expect(reader.uint32()).toBe(0xffffffff);
    expect(reader.uint32()).toBe(42);
  });

  it('refuses a length that runs past the end, naming where', () => {
    const reader = new ProtobufReader(Buffer.from([...tag(1, 2), 0x10, 0x61]));
    reader.uint32();
    expect(() => reader.string()).toThrow(/a length of 16 at offset 2 runs past the end \(3\)/);
  });
});

describe('ProtobufMessageDecoder', () => {
  it('shows an absent non-pointer field as encoding/json would: port 0, a zero Time as null, a struct even under omitempty', () => {
    // targetPort is an IntOrString with omitempty, which never omits a struct: encoding/json writes 0.
    expect(decode('core.v1.ServicePort', bytes(1, 'http'))).toStrictEqual({ name: 'http', port: 0, targetPort: 0 });
    expect(decode('core.v1.NamespaceCondition', [...bytes(1, 'Ready'), ...bytes(2, 'True')])).toStrictEqual({
      type: 'Ready',
      status: 'True',
      lastTransitionTime: null,
    });
  });

  it('leaves out a present zero value under omitempty or omitzero, but keeps a pointer set to zero or false', () => {
    const meta = decode('meta.v1.ObjectMeta', [...bytes(1, 'a'), ...bytes(2, ''), ...int(7, 0), ...bytes(8, [])]);
    expect(meta).toStrictEqual({ name: 'a' });
    expect(decode('coordination.v1.LeaseSpec', [...bytes(1, ''), ...int(2, 0)])).toStrictEqual({ holderIdentity: '', leaseDurationSeconds: 0 });
  });

  it('decodes negative numbers, IntOrString both ways, quantities, MicroTime to the microsecond', () => {
    expect(decode('core.v1.ServicePort', [...int(3, -5), ...bytes(4, [...int(1, 1), ...bytes(3, 'web')])])).toMatchObject({ port: -5, targetPort: 'web' });
    expect(decode('core.v1.ServicePort', [...int(3, 80), ...bytes(4, [...int(1, 0), ...int(2, 8080)])])).toMatchObject({ targetPort: 8080 });
    expect(decode('core.v1.NodeStatus', bytes(1, [...bytes(1, 'cpu'), ...bytes(2, bytes(1, '3800m'))]))).toMatchObject({ capacity: { cpu: '3800m' } });
    const spec = decode('coordination.v1.LeaseSpec', bytes(3, [...int(1, 1_764_637_200), ...int(2, 123_456_789)]));
    expect(spec).toStrictEqual({ acquireTime: '2025-12-02T01:00:00.123456Z' });
  });

  it('skips a field newer than the schema, and names the field whose wire type is wrong', () => {
    expect(decode('core.v1.ServicePort', [...bytes(99, 'future'), ...int(3, 443)])).toStrictEqual({ port: 443, targetPort: 0 });
    expect(() => decode('core.v1.ServicePort', bytes(3, 'x'))).toThrow('protobuf: core.v1.ServicePort.port came as wire type 2, expected 0');
  });

  it('writes []byte as base64, and a map entry without a value as the value type’s zero', () => {
    expect(decode('core.v1.Secret', [...bytes(2, [...bytes(1, 'k'), ...bytes(2, [0, 255])]), ...bytes(2, bytes(1, 'empty'))])).toStrictEqual({
      metadata: {},
      data: { k: 'AP8=', empty: null },
    });
  });

  it('gives objects with the same FieldsV1 one frozen value, and each object its own entry around it', () => {
    const fields = JSON.stringify({ 'f:data': { '.': {}, 'f:payload': {} } });
    const entry = (manager: string, raw: string) => [...bytes(1, manager), ...bytes(7, bytes(1, raw))];
    const first = decode('meta.v1.ManagedFieldsEntry', entry('writer', fields));
    const second = decode('meta.v1.ManagedFieldsEntry', entry('other', fields));
    expect(first).toStrictEqual({ manager: 'writer', fieldsV1: JSON.parse(fields) });
    expect(second.fieldsV1).toBe(first.fieldsV1);
    expect(Object.isFrozen(first.fieldsV1)).toBe(true);
    expect(Object.isFrozen(first)).toBe(false);
    const changed = decode('meta.v1.ManagedFieldsEntry', entry('writer', JSON.stringify({ 'f:data': {} })));
    expect(changed.fieldsV1).toStrictEqual({ 'f:data': {} });
    expect(changed.fieldsV1).not.toBe(first.fieldsV1);
  });
});
