/**
 * A minimal reader of the protobuf wire format: enough to walk an ONNX `ModelProto` to its
 * initializers without a protobuf library. It reads fields one at a time and never copies
 * length-delimited payloads (bytes, strings, nested messages are views into the input).
 */

/** Wire types of the protobuf encoding. */
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

/** One field of a message: its number, wire type, and value (a number, or a view for length-delimited). */
export type ProtobufField =
  | { field: number; wire: typeof VARINT | typeof FIXED64 | typeof FIXED32; value: number }
  | { field: number; wire: typeof LENGTH_DELIMITED; value: Uint8Array };

/**
 * Reads an unsigned varint at `pos` of `bytes`. Values above 2^53 lose precision (ONNX dims and
 * enums are far smaller). Returns the value and the position after it.
 */
function readVarint(bytes: Uint8Array, pos: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= bytes.length) throw new Error('protobuf: truncated varint');
    const byte = bytes[pos++]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, pos];
    scale *= 128;
  }
  throw new Error('protobuf: varint longer than 10 bytes');
}

/** The fields of one message, in wire order. Throws on truncated or malformed input. */
export function* readFields(bytes: Uint8Array): Generator<ProtobufField> {
  let pos = 0;
  while (pos < bytes.length) {
    const [key, afterKey] = readVarint(bytes, pos);
    const field = Math.floor(key / 8);
    const wire = key % 8;
    pos = afterKey;
    if (field === 0) throw new Error('protobuf: field number 0');
    if (wire === VARINT) {
      const [value, next] = readVarint(bytes, pos);
      pos = next;
      yield { field, wire, value };
    } else if (wire === LENGTH_DELIMITED) {
      const [length, start] = readVarint(bytes, pos);
      const end = start + length;
      if (end > bytes.length) throw new Error('protobuf: length-delimited field past the end');
      pos = end;
      yield { field, wire, value: bytes.subarray(start, end) };
    } else if (wire === FIXED64 || wire === FIXED32) {
      const size = wire === FIXED64 ? 8 : 4;
      if (pos + size > bytes.length) throw new Error('protobuf: truncated fixed-size field');
      const view = new DataView(bytes.buffer, bytes.byteOffset + pos, size);
      pos += size;
      // Only the raw bits' low word matters to callers here (none reads fixed64 values).
      yield { field, wire, value: view.getUint32(0, true) };
    } else {
      throw new Error(`protobuf: unsupported wire type ${wire}`);
    }
  }
}

/** Unsigned varints of a `repeated` integer field, packed (one length-delimited run) or not. */
export function readPackedVarints(value: Uint8Array): number[] {
  const out: number[] = [];
  for (let pos = 0; pos < value.length;) {
    const [v, next] = readVarint(value, pos);
    out.push(v);
    pos = next;
  }
  return out;
}
