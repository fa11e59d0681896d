import { builtInSchema } from './built-in-schema.generated.js';
import { ProtobufMessageDecoder } from './protobuf-message-decoder.js';
import { ProtobufReader } from './protobuf-reader.js';

/** The media types of the API server's protobuf encoding (k8s.io/apimachinery/pkg/runtime/serializer/protobuf). */
export const protobufMediaType = 'application/vnd.kubernetes.protobuf';
export const protobufWatchMediaType = `${protobufMediaType};stream=watch`;

type JsonObject = Record<string, unknown>;

const decoder = new ProtobufMessageDecoder(builtInSchema);
/** Every encoded object starts with these four bytes ("k8s\0"), then a runtime.Unknown. */
const magic = [0x6b, 0x38, 0x73, 0x00] as const;

/** Whether objects of this kind can be asked for as protobuf (built-in kinds; custom resources are JSON only). */
export function decodesProtobuf(apiVersion: string, kind: string): boolean {
  return decoder.messageOfKind(apiVersion, kind) !== undefined && decoder.messageOfKind(apiVersion, `${kind}List`) !== undefined;
}

interface Envelope {
  readonly apiVersion: string;
  readonly kind: string;
  /** Where the encoded object lies in the buffer. */
  readonly start: number;
  readonly end: number;
}

/** runtime.Unknown {typeMeta = 1 {apiVersion = 1, kind = 2}, raw = 2, contentEncoding = 3, contentType = 4}. */
function openEnvelope(buf: Buffer, start = 0, end = buf.length): Envelope {
  if (end - start < magic.length || magic.some((byte, i) => buf[start + i] !== byte)) {
    throw new Error(`protobuf: the body does not start with the Kubernetes magic number (${buf.subarray(start, start + 4).toString('hex')})`);
  }
  const reader = new ProtobufReader(buf, start + magic.length, end);
  let apiVersion = '';
  let kind = '';
  let rawStart = 0;
  let rawEnd = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === 0x0a) {
      const typeMetaEnd = reader.delimitedEnd();
      while (reader.pos < typeMetaEnd) {
        const inner = reader.uint32();
        if (inner === 0x0a) apiVersion = reader.string();
        else if (inner === 0x12) kind = reader.string();
        else reader.skip(inner & 7);
      }
    } else if (tag === 0x12) {
      rawEnd = reader.delimitedEnd();
      rawStart = reader.pos;
      reader.pos = rawEnd;
    } else if (tag === 0x1a) {
      const encoding = reader.string();
      if (encoding !== '') throw new Error(`protobuf: content encoding ${encoding} is not supported`);
    } else reader.skip(tag & 7);
  }
  return { apiVersion, kind, start: rawStart, end: rawEnd };
}

function messageOf(envelope: Envelope): string {
  const message = decoder.messageOfKind(envelope.apiVersion, envelope.kind);
  if (!message) throw new Error(`protobuf: no schema for ${envelope.apiVersion}/${envelope.kind}`);
  return message;
}

/** One encoded object (magic + runtime.Unknown), as JSON would have given it, apiVersion and kind included. */
export function decodeKubeObject<T = JsonObject>(buf: Buffer, start = 0, end = buf.length): T {
  const envelope = openEnvelope(buf, start, end);
  const target = { apiVersion: envelope.apiVersion, kind: envelope.kind };
  return decoder.decodeInto(target, new ProtobufReader(buf, envelope.start, envelope.end), envelope.end, messageOf(envelope)) as T;
}

export interface DecodedList<T> {
  readonly metadata: { readonly resourceVersion?: string; readonly continue?: string };
  readonly items: T[];
}

/**
 * A list ({metadata = 1, items = 2}). Items get the apiVersion and kind of their list's item kind, which JSON list
 * items of built-in kinds lack; the informer's cache holds them either way.
 */
export function decodeKubeList<T = JsonObject>(buf: Buffer): DecodedList<T> {
  const envelope = openEnvelope(buf);
  const listMessage = messageOf(envelope);
  const itemKind = envelope.kind.replace(/List$/, '');
  const itemMessage = decoder.messageOfKind(envelope.apiVersion, itemKind);
  if (!itemMessage) throw new Error(`protobuf: no schema for ${envelope.apiVersion}/${itemKind}`);
  const readMetadata = decoder.fieldDecoder(listMessage, 1);
  const reader = new ProtobufReader(buf, envelope.start, envelope.end);
  let metadata: DecodedList<T>['metadata'] = {};
  const items: T[] = [];
  while (reader.pos < envelope.end) {
    const tag = reader.uint32();
    if (tag === 0x0a) metadata = readMetadata(reader) as DecodedList<T>['metadata'];
    else if (tag === 0x12) {
      const itemEnd = reader.delimitedEnd();
      items.push(decoder.decodeInto({ apiVersion: envelope.apiVersion, kind: itemKind }, reader, itemEnd, itemMessage) as T);
    } else reader.skip(tag & 7);
  }
  return { metadata, items };
}

/** Only a list's metadata: the API server writes it before the items, so a pager can ask for the next page first. */
export function decodeKubeListMetadata(buf: Buffer): DecodedList<never>['metadata'] {
  const envelope = openEnvelope(buf);
  const reader = new ProtobufReader(buf, envelope.start, envelope.end);
  while (reader.pos < envelope.end) {
    const tag = reader.uint32();
    if (tag === 0x0a) return decoder.fieldDecoder(messageOf(envelope), 1)(reader) as DecodedList<never>['metadata'];
    reader.skip(tag & 7);
  }
  return {};
}

/** One frame of a protobuf watch: metav1.WatchEvent {type = 1, object = 2 (runtime.RawExtension {raw = 1})}. */
export function decodeWatchEvent(frame: Buffer, start = 0, end = frame.length): { type: string; object: unknown } {
  const reader = new ProtobufReader(frame, start, end);
  let type = '';
  let object: unknown;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag === 0x0a) type = reader.string();
    else if (tag === 0x12) object = reader.unwrap(decodeKubeObject, undefined);
    else reader.skip(tag & 7);
  }
  return { type, object };
}
