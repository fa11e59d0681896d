/**
 * How a protobuf message of a built-in kind maps onto the JSON the API server would have written for it. Generated
 * from the Go types by tools/kube-protobuf-schema: the .proto files give field numbers, the Go types give what
 * encoding/json does with each field (omitted when empty, a pointer present only when set, a type that marshals
 * itself).
 */
export interface KubeProtobufSchema {
  /** `apiVersion/kind`, as runtime.Unknown names an encoded object, to its message. */
  readonly kinds: Readonly<Record<string, string>>;
  readonly messages: Readonly<Record<string, readonly SchemaField[]>>;
}

/**
 * [field number, JSON name, type, flags]. The type is a scalar (`string`, `int`, `bool`, `bytes`; Kubernetes APIs have no floats), a type
 * that marshals itself (`time`, `microTime`, `fieldsV1`, `quantity`, `intOrString`), a message name, or `map:` and
 * the type of the values (keys are strings).
 */
export type SchemaField = readonly [number: number, jsonName: string, type: string, flags: number];

/** The flag bits of a SchemaField, as tools/kube-protobuf-schema writes them. */
export const fieldFlags = {
  /** A Go slice other than []byte. */
  repeated: 1,
  /** A Go pointer: on the wire only when set, and then kept even when zero. */
  pointer: 2,
  omitEmpty: 4,
  omitZero: 8,
} as const;
