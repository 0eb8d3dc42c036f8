import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import onnxProto from 'onnx-proto';
import { describe, expect, it } from 'vitest';

import {
  DIMENSIONS,
  ENGLISH_DIMENSIONS,
  ENGLISH_MODEL_ID,
  englishModelRootPath,
  MODEL_ID,
  modelRootPath,
  readStaticWeights,
  STATIC_MODEL_FILES,
} from '../src/index.ts';

const { onnx } = onnxProto;
const weightsOf = async (root: string, id: string) =>
  new Uint8Array(readFileSync(join(root, id, STATIC_MODEL_FILES.weights)));
const bytes = await weightsOf(await modelRootPath(), MODEL_ID);
const english = await weightsOf(await englishModelRootPath(), ENGLISH_MODEL_ID);

describe('readStaticWeights', () => {
  it.each([
    ['the default model', bytes, DIMENSIONS, 61_166],
    ['the English model', english, ENGLISH_DIMENSIONS, 50_081],
  ])('reads the same table and scales as a full protobuf decoder (%s)', (_, bytes, dims, rows) => {
    const weights = readStaticWeights(bytes);
    expect(weights.dims).toBe(dims);
    expect(weights.vocabSize).toBe(rows);
    const model = onnx.ModelProto.decode(bytes);
    const byName = new Map(model.graph!.initializer!.map((t) => [t.name, t]));
    const table = byName.get('embeddings.int8')!.rawData as Uint8Array;
    const scale = byName.get('embeddings.scale')!.rawData as Uint8Array;
    const tableBytes = Buffer.from(
      weights.table.buffer,
      weights.table.byteOffset,
      weights.table.byteLength,
    );
    expect(tableBytes.equals(Buffer.from(table))).toBe(true);
    const view = new DataView(scale.buffer, scale.byteOffset, scale.byteLength);
    const scales = Float32Array.from({ length: weights.vocabSize }, (_, i) =>
      view.getFloat32(i * 4, true),
    );
    expect(Buffer.from(weights.scale.buffer).equals(Buffer.from(scales.buffer))).toBe(true);
  });

  it('refuses bytes that are not the static model', () => {
    expect(() => readStaticWeights(new TextEncoder().encode('not a protobuf at all'))).toThrow();
    expect(() => readStaticWeights(bytes.subarray(0, bytes.length - 1000))).toThrow(/protobuf/);
    expect(() => readStaticWeights(new Uint8Array())).toThrow(/no graph/);
    const model = onnx.ModelProto.decode(bytes);
    model.graph!.node!.push({ opType: 'Relu', input: ['last_hidden_state'], output: ['y'] });
    expect(() => readStaticWeights(onnx.ModelProto.encode(model).finish())).toThrow(
      /not the static model's graph/,
    );
    const renamed = onnx.ModelProto.decode(bytes);
    renamed.graph!.initializer![1]!.dims = [61_166, 2];
    expect(() => readStaticWeights(onnx.ModelProto.encode(renamed).finish())).toThrow(
      /embeddings\.scale/,
    );
  });
});
