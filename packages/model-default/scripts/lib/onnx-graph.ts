/**
 * Writes the static embedding model as an ONNX protobuf:
 *
 *   input_ids int64 [batch, seq]
 *     ─ Gather(table int8 [V, D])      → int8  [batch, seq, D]
 *     ─ Cast(to float)                  → float [batch, seq, D]
 *     ─ Mul(Gather(scale float [V, 1])) → last_hidden_state float [batch, seq, D]
 *
 * Only `input_ids` is declared: transformers.js feeds a model only the inputs its graph declares,
 * and a bag-of-words model has no use for `attention_mask` (padding rows are zero, and the
 * pipeline's mean pooling applies the mask itself) or `token_type_ids`.
 */
import onnxProto from 'onnx-proto';

const { onnx } = onnxProto;

/** ONNX IR version 7 (opset 13 needs IR ≥ 7); opset 13 has every op used here. */
const IR_VERSION = 7;
const OPSET = 13;

export interface StaticModelGraph {
  /** Rows of int8 values, row-major [vocabSize, dims]. */
  table: Int8Array;
  /** Per-row dequantisation scale, [vocabSize]. */
  scale: Float32Array;
  vocabSize: number;
  dims: number;
  /** Free text for the model's doc_string. */
  docString: string;
  /** Extra `metadata_props` (key order is kept). */
  metadata: [string, string][];
  producerVersion: string;
}

function tensorType(
  elemType: number,
  shape: (string | number)[],
): { tensorType: { elemType: number; shape: { dim: object[] } } } {
  return {
    tensorType: {
      elemType,
      shape: {
        dim: shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })),
      },
    },
  };
}

/** Encodes the model to ONNX protobuf bytes (deterministic for the same input). */
export function encodeStaticModel(model: StaticModelGraph): Uint8Array {
  const { DataType } = onnx.TensorProto;
  const { table, scale, vocabSize: V, dims: D } = model;
  if (table.length !== V * D || scale.length !== V) throw new Error('table/scale size mismatch');

  const graph: onnxProto.onnx.IGraphProto = {
    name: 'static_embedding',
    initializer: [
      {
        name: 'embeddings.int8',
        dataType: DataType.INT8,
        dims: [V, D],
        rawData: new Uint8Array(table.buffer, table.byteOffset, table.byteLength),
      },
      {
        name: 'embeddings.scale',
        dataType: DataType.FLOAT,
        dims: [V, 1],
        rawData: littleEndianFloat32(scale),
      },
    ],
    node: [
      {
        name: 'gather_rows',
        opType: 'Gather',
        input: ['embeddings.int8', 'input_ids'],
        output: ['rows.int8'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
      {
        name: 'cast_rows',
        opType: 'Cast',
        input: ['rows.int8'],
        output: ['rows.float'],
        attribute: [{ name: 'to', type: onnx.AttributeProto.AttributeType.INT, i: DataType.FLOAT }],
      },
      {
        name: 'gather_scales',
        opType: 'Gather',
        input: ['embeddings.scale', 'input_ids'],
        output: ['rows.scale'],
        attribute: [{ name: 'axis', type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
      },
      {
        name: 'dequantize',
        opType: 'Mul',
        input: ['rows.float', 'rows.scale'],
        output: ['last_hidden_state'],
      },
    ],
    input: [
      { name: 'input_ids', type: tensorType(DataType.INT64, ['batch_size', 'sequence_length']) },
    ],
    output: [
      {
        name: 'last_hidden_state',
        type: tensorType(DataType.FLOAT, ['batch_size', 'sequence_length', D]),
      },
    ],
  };

  const proto = onnx.ModelProto.create({
    irVersion: IR_VERSION,
    opsetImport: [{ domain: '', version: OPSET }],
    producerName: 'anamnesis',
    producerVersion: model.producerVersion,
    docString: model.docString,
    graph,
    metadataProps: model.metadata.map(([key, value]) => ({ key, value })),
  });
  return onnx.ModelProto.encode(proto).finish();
}

/** float32 values as little-endian bytes (ONNX raw_data is little-endian on every platform). */
function littleEndianFloat32(values: Float32Array): Uint8Array {
  const out = new Uint8Array(values.length * 4);
  const view = new DataView(out.buffer);
  values.forEach((v, i) => view.setFloat32(i * 4, v, true));
  return out;
}
