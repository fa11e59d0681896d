import { fieldFlags, type KubeProtobufSchema, type SchemaField } from './kube-protobuf-schema.js';
import { parsedFieldsV1 } from './parsed-fields-v1.js';
import { ProtobufReader, wireType } from './protobuf-reader.js';
import { secondsText } from './time-text.js';

type JsonObject = Record<string, unknown>;

/** Reads one value whose tag was just read; the reader stands at the value. */
type ValueDecoder = (reader: ProtobufReader) => unknown;

interface ValueType {
  readonly wire: number;
  readonly decode: ValueDecoder;
  /** What encoding/json writes for the Go zero value of this type (a nil slice or pointer aside). */
  readonly zero: () => unknown;
  /** Whether a decoded value is what `omitempty` on a non-pointer field leaves out. */
  readonly isEmpty: (value: unknown) => boolean;
}

interface CompiledField {
  readonly number: number;
  readonly name: string;
  readonly type: ValueType;
  readonly repeated: boolean;
  readonly map: boolean;
  /** A present value that encoding/json would leave out: omitempty or omitzero on a non-pointer field. */
  readonly dropsEmpty: boolean;
  /** When the field is not on the wire: what JSON shows, or undefined when it shows nothing. */
  readonly whenAbsent: (() => unknown) | undefined;
}

interface CompiledMessage {
  readonly name: string;
  /** Indexed by field number. */
  readonly fields: readonly (CompiledField | undefined)[];
  /** Fields that JSON shows even when the wire did not carry them. */
  readonly shownWhenAbsent: readonly CompiledField[];
}

const never = () => false;
const nullValue = () => null;
const primitiveTypes = new Set(['string', 'int', 'bool', 'bytes']);
const noBytes = Buffer.alloc(0);

/** metav1.Time and MicroTime: {seconds = 1, nanos = 2}; the zero time marshals as null. */
function readTimestamp(reader: ProtobufReader): { seconds: number; nanos: number } {
  const end = reader.delimitedEnd();
  let seconds = 0;
  let nanos = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === 0x08) seconds = reader.int64();
    else if (tag === 0x10) nanos = reader.int64();
    else reader.skip(tag & 7);
  }
  return { seconds, nanos };
}

const readFieldsV1 = (buf: Buffer, start: number, end: number) => parsedFieldsV1(buf.toString('utf8', start, end));

const scalarTypes: Readonly<Record<string, ValueType>> = {
  string: { wire: wireType.lengthDelimited, decode: (reader) => reader.string(), zero: () => '', isEmpty: (value) => value === '' },
  int: { wire: wireType.varint, decode: (reader) => reader.int64(), zero: () => 0, isEmpty: (value) => value === 0 },
  bool: { wire: wireType.varint, decode: (reader) => reader.uint32() !== 0, zero: () => false, isEmpty: (value) => value === false },
  // []byte marshals as base64; a nil one as null.
  bytes: {
    wire: wireType.lengthDelimited,
    decode: (reader) => {
      const end = reader.delimitedEnd();
      const value = reader.buf.toString('base64', reader.pos, end);
      reader.pos = end;
      return value;
    },
    zero: nullValue,
    isEmpty: (value) => value === '',
  },
  time: {
    wire: wireType.lengthDelimited,
    decode: (reader) => {
      const { seconds, nanos } = readTimestamp(reader);
      return seconds === 0 && nanos === 0 ? null : `${secondsText(seconds)}Z`;
    },
    zero: nullValue,
    isEmpty: (value) => value === null,
  },
  // RFC 3339 with six fractional digits, as metav1.MicroTime marshals (Lease and Event times).
  microTime: {
    wire: wireType.lengthDelimited,
    decode: (reader) => {
      const { seconds, nanos } = readTimestamp(reader);
      if (seconds === 0 && nanos === 0) return null;
      return `${secondsText(seconds)}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
    },
    zero: nullValue,
    isEmpty: (value) => value === null,
  },
  // metav1.FieldsV1 {raw = 1}: the raw bytes are JSON, and marshal as themselves (shared: parsedFieldsV1).
  fieldsV1: {
    wire: wireType.lengthDelimited,
    decode: (reader) => reader.unwrap(readFieldsV1, null),
    zero: nullValue,
    isEmpty: never,
  },
  // resource.Quantity {string = 1}: its canonical text.
  quantity: {
    wire: wireType.lengthDelimited,
    decode: (reader) => {
      const end = reader.delimitedEnd();
      let value = '0';
      while (reader.pos < end) {
        const tag = reader.uint32();
        if (tag === 0x0a) value = reader.string();
        else reader.skip(tag & 7);
      }
      return value;
    },
    zero: () => '0',
    isEmpty: never,
  },
  // intstr.IntOrString {type = 1, intVal = 2, strVal = 3}: a number or a string.
  intOrString: {
    wire: wireType.lengthDelimited,
    decode: (reader) => {
      const end = reader.delimitedEnd();
      let isString = false;
      let intValue = 0;
      let stringValue = '';
      while (reader.pos < end) {
        const tag = reader.uint32();
        if (tag === 0x08) isString = reader.int64() === 1;
        else if (tag === 0x10) intValue = reader.int64();
        else if (tag === 0x1a) stringValue = reader.string();
        else reader.skip(tag & 7);
      }
      return isString ? stringValue : intValue;
    },
    zero: () => 0,
    isEmpty: never,
  },
};

/**
 * Decodes protobuf messages of a KubeProtobufSchema into the objects the API server's JSON would have given:
 * the same fields, omitted and defaulted as encoding/json does for the Go types. Messages are compiled on first use.
 */
export class ProtobufMessageDecoder {
  private readonly compiled = new Map<string, CompiledMessage>();

  constructor(private readonly schema: KubeProtobufSchema) {}

  messageOfKind(apiVersion: string, kind: string): string | undefined {
    return this.schema.kinds[`${apiVersion}/${kind}`];
  }

  /** Decodes the message at [reader.pos, end) into `target` (which may already hold apiVersion and kind). */
  decodeInto(target: JsonObject, reader: ProtobufReader, end: number, messageName: string): JsonObject {
    return decodeFields(target, reader, end, this.message(messageName));
  }

  /** The field numbered `number` of a message, for a caller walking a message itself (lists, envelopes). */
  fieldDecoder(messageName: string, number: number): ValueDecoder {
    const field = this.message(messageName).fields[number];
    if (!field) throw new Error(`protobuf: ${messageName} has no field ${number}`);
    return field.type.decode;
  }

  private message(name: string): CompiledMessage {
    let message = this.compiled.get(name);
    if (message) return message;
    const fields = this.schema.messages[name];
    if (!fields) throw new Error(`protobuf: no schema for message ${name}`);
    const byNumber: (CompiledField | undefined)[] = [];
    const compiledFields = fields.map((field) => this.compileField(name, field));
    for (const field of compiledFields) byNumber[field.number] = field;
    message = { name, fields: byNumber, shownWhenAbsent: compiledFields.filter((field) => field.whenAbsent !== undefined) };
    this.compiled.set(name, message);
    return message;
  }

  private compileField(messageName: string, [number, name, typeName, flags]: SchemaField): CompiledField {
    const map = typeName.startsWith('map:');
    const type = this.valueType(map ? typeName.slice(4) : typeName, `${messageName}.${name}`);
    const repeated = (flags & fieldFlags.repeated) !== 0;
    const omitZero = (flags & fieldFlags.omitZero) !== 0;
    const omitEmpty = (flags & fieldFlags.omitEmpty) !== 0;
    // encoding/json's omitempty leaves out only empty primitives, slices, maps and nil pointers, never a struct;
    // omitzero leaves out any zero value (a zero metav1.Time decodes as null).
    const primitive = primitiveTypes.has(typeName);
    const dropsEmpty = !map && !repeated && (flags & fieldFlags.pointer) === 0 && (omitZero || (omitEmpty && primitive));
    let whenAbsent: (() => unknown) | undefined;
    if ((flags & fieldFlags.pointer) !== 0 || map || repeated || typeName === 'bytes') whenAbsent = omitZero || omitEmpty ? undefined : nullValue;
    else if (omitZero || (omitEmpty && primitive)) whenAbsent = undefined;
    else whenAbsent = type.zero;
    return { number, name, type, repeated, map, dropsEmpty, whenAbsent };
  }

  private valueType(typeName: string, where: string): ValueType {
    const scalar = scalarTypes[typeName];
    if (scalar) return scalar;
    if (!this.schema.messages[typeName]) throw new Error(`protobuf: ${where} has type ${typeName}, which has no decoder`);
    // Compiled on the first value, not here: message types refer to each other.
    let compiled: CompiledMessage | undefined;
    const message = () => (compiled ??= this.message(typeName));
    return {
      wire: wireType.lengthDelimited,
      decode: (reader) => {
        const end = reader.delimitedEnd();
        return decodeFields({}, reader, end, message());
      },
      zero: () => decodeFields({}, new ProtobufReader(noBytes), 0, message()),
      isEmpty: never,
    };
  }
}

function decodeFields(target: JsonObject, reader: ProtobufReader, end: number, message: CompiledMessage): JsonObject {
  while (reader.pos < end) {
    const tag = reader.uint32();
    const field = message.fields[tag >>> 3];
    const wire = tag & 7;
    if (field === undefined) {
      // A field newer than the schema: JSON would carry it, but nothing here knows its name.
      reader.skip(wire);
      continue;
    }
    if (field.map) {
      readMapEntry(target, reader, field);
      continue;
    }
    if (wire !== field.type.wire) {
      throw new Error(`protobuf: ${message.name}.${field.name} came as wire type ${wire}, expected ${field.type.wire}`);
    }
    const value = field.type.decode(reader);
    if (field.repeated) {
      const list = target[field.name] as unknown[] | undefined;
      if (list) list.push(value);
      else target[field.name] = [value];
    } else if (!(field.dropsEmpty && field.type.isEmpty(value))) {
      target[field.name] = value;
    }
  }
  for (const field of message.shownWhenAbsent) {
    if (!(field.name in target)) target[field.name] = field.whenAbsent!();
  }
  return target;
}

/** A map entry is a message {key = 1, value = 2}. */
function readMapEntry(target: JsonObject, reader: ProtobufReader, field: CompiledField): void {
  const end = reader.delimitedEnd();
  let key = '';
  let value: unknown;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === 0x0a) key = reader.string();
    else if (tag >>> 3 === 2 && (tag & 7) === field.type.wire) value = field.type.decode(reader);
    else reader.skip(tag & 7);
  }
  const map = (target[field.name] ??= {}) as JsonObject;
  map[key] = value === undefined ? field.type.zero() : value;
}
