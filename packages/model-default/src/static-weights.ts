/**
 * The weights of a static model (the default model, the English model), read straight out of its
 * ONNX file.
 *
 * Why parse the `.onnx` rather than ship a second raw artifact: the ONNX file is already the one
 * reproducible, sha256-checked source of the weights (`verify:default`, `verify:build`), every app already serves
 * it (the Vite plugin, the extension, the consumers), and the plain-JavaScript embedder and ONNX
 * Runtime then read the very same bytes, so they cannot drift apart. The cost is this small
 * reader: the file is a handful of protobuf fields around two raw tensors, and the graph is
 * checked to be exactly the one `scripts/lib/onnx-graph.ts` writes before its tensors are trusted.
 */
import { readFields, readPackedVarints, type ProtobufField } from './protobuf-reader.ts';

/** The int8 table and per-row scales of the static model (see {@link readStaticWeights}). */
export interface StaticWeights {
  /** Rows of int8 values, row-major `[vocabSize, dims]` (a view into the ONNX bytes). */
  table: Int8Array;
  /** Per-row dequantisation scale, `[vocabSize]`: row value = `float32(table) * scale`. */
  scale: Float32Array;
  /** Rows in the table: the tokenizer's vocabulary size. */
  vocabSize: number;
  /** Values per row: the embedding dimension. */
  dims: number;
}

/** The graph the static model must have: its nodes' op types, in order (see `onnx-graph.ts`). */
const STATIC_GRAPH_OPS = ['Gather', 'Cast', 'Gather', 'Mul'] as const;
const TABLE = 'embeddings.int8';
const SCALE = 'embeddings.scale';

// ONNX field numbers (onnx.proto): ModelProto.graph; GraphProto.node, .initializer;
// NodeProto.op_type; TensorProto.dims, .data_type, .name, .raw_data, .data_location.
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const NODE_OP_TYPE = 4;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const TENSOR_DATA_LOCATION = 14;
// TensorProto.DataType
const FLOAT = 1;
const INT8 = 3;

interface Tensor {
  name: string;
  dataType: number;
  dims: number[];
  raw: Uint8Array | undefined;
  external: boolean;
}

const utf8 = new TextDecoder();

function bytesOf(f: ProtobufField): Uint8Array {
  if (f.wire !== 2) throw new Error(`onnx: field ${f.field} is not length-delimited`);
  return f.value;
}

function numberOf(f: ProtobufField): number {
  if (f.wire !== 0) throw new Error(`onnx: field ${f.field} is not a varint`);
  return f.value;
}

function readTensor(bytes: Uint8Array): Tensor {
  const tensor: Tensor = { name: '', dataType: 0, dims: [], raw: undefined, external: false };
  for (const f of readFields(bytes)) {
    if (f.field === TENSOR_DIMS) {
      if (f.wire === 2) tensor.dims.push(...readPackedVarints(f.value));
      else tensor.dims.push(numberOf(f));
    } else if (f.field === TENSOR_DATA_TYPE) tensor.dataType = numberOf(f);
    else if (f.field === TENSOR_NAME) tensor.name = utf8.decode(bytesOf(f));
    else if (f.field === TENSOR_RAW_DATA) tensor.raw = bytesOf(f);
    else if (f.field === TENSOR_DATA_LOCATION) tensor.external = numberOf(f) === 1;
  }
  return tensor;
}

/**
 * Reads the int8 table and the scales out of a static model's ONNX bytes (`model_quantized.onnx`
 * of `anamnesis/static-multi-64d`, `anamnesis/glove-100d-sif`, or any model `scripts/lib/onnx-graph.ts`
 * writes). The table is a view into `bytes` (no copy); the scales are
 * copied (they may sit at an unaligned offset).
 *
 * Throws an `Error` when the bytes are not that model: not protobuf, another graph (the node op
 * types must be Gather, Cast, Gather, Mul), missing or mis-shaped initializers, external data.
 */
export function readStaticWeights(bytes: Uint8Array): StaticWeights {
  let graph: Uint8Array | undefined;
  for (const f of readFields(bytes)) if (f.field === MODEL_GRAPH) graph = bytesOf(f);
  if (!graph) throw new Error('onnx: the model has no graph');
  const ops: string[] = [];
  const tensors = new Map<string, Tensor>();
  for (const f of readFields(graph)) {
    if (f.field === GRAPH_NODE) {
      let op = '';
      for (const g of readFields(bytesOf(f))) {
        if (g.field === NODE_OP_TYPE) op = utf8.decode(bytesOf(g));
      }
      ops.push(op);
    } else if (f.field === GRAPH_INITIALIZER) {
      const tensor = readTensor(bytesOf(f));
      tensors.set(tensor.name, tensor);
    }
  }
  if (ops.join(',') !== STATIC_GRAPH_OPS.join(',')) {
    throw new Error(`onnx: not the static model's graph (nodes: ${ops.join(', ') || 'none'})`);
  }
  const table = tensors.get(TABLE);
  const scale = tensors.get(SCALE);
  if (!table || !scale) throw new Error(`onnx: initializers ${TABLE} and ${SCALE} are required`);
  if (table.external || scale.external || !table.raw || !scale.raw) {
    throw new Error('onnx: the initializers must hold their data inline (raw_data)');
  }
  const [vocabSize, dims] = table.dims as [number, number];
  if (
    table.dataType !== INT8 ||
    table.dims.length !== 2 ||
    !(vocabSize > 0 && dims > 0) ||
    table.raw.length !== vocabSize * dims
  ) {
    throw new Error(`onnx: ${TABLE} must be int8 [vocab, dims] with ${vocabSize * dims} bytes`);
  }
  if (
    scale.dataType !== FLOAT ||
    scale.dims.length !== 2 ||
    scale.dims[0] !== vocabSize ||
    scale.dims[1] !== 1 ||
    scale.raw.length !== vocabSize * 4
  ) {
    throw new Error(`onnx: ${SCALE} must be float [${vocabSize}, 1]`);
  }
  const scales = new Float32Array(vocabSize);
  const view = new DataView(scale.raw.buffer, scale.raw.byteOffset, scale.raw.byteLength);
  for (let i = 0; i < vocabSize; i++) scales[i] = view.getFloat32(i * 4, true);
  return {
    table: new Int8Array(table.raw.buffer, table.raw.byteOffset, table.raw.byteLength),
    scale: scales,
    vocabSize,
    dims,
  };
}
