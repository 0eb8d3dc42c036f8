/**
 * Makes a smaller static model from a built one without retraining (issue 67): its int8 rows are
 * dequantised as the runtime reads them (`fround(int8 · scale)`), projected onto their top `dims`
 * principal directions (uncentered, each row once, by the same power iteration as `build.ts
 * --dims`) and quantised to int8 per row again. The tokenizer files are copied byte for byte;
 * `config.json` gets the new `hidden_size`; `neighbours.bin` is computed from the new rows as
 * `build.ts` computes the English model's (`neighbours.ts`). With the model's own dimension the
 * model's files are copied unchanged and only `neighbours.bin` is added. Writes a model root of
 * its own whose `manifest.json` lists each file, carries over what the source's manifest records
 * (sources, licences, what training excluded, the split), names the source model and its files
 * (`derived_from`, with the source's build settings) and says how it was projected. Deterministic.
 *
 * The default model, `anamnesis/static-multi-64d`, is `anamnesis/static-multi-100d` projected
 * onto 64 dimensions (`scripts/build-default.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { NEIGHBOUR_TABLE_FILE, readStaticWeights, STATIC_MODEL_FILES } from '../../src/index.ts';
import { quantizeRows, secondMoment, topEigenvectors } from './model.ts';
import { neighbourTableFile } from './neighbours.ts';
import { encodeStaticModel } from './onnx-graph.ts';
import { readManifest, writeRoot, type RootManifest } from './roots.ts';

/** The default model: the multilingual model projected onto this many dimensions. */
export const DEFAULT_PROJECTION = { dims: 64, modelId: 'anamnesis/static-multi-64d' } as const;

export interface ProjectOptions {
  /** The source model root (a `manifest.json` and `<model id>/…`). */
  from: string;
  /** The model root to write. */
  out: string;
  /** Dimensions to keep (1 to the source's). Default: the source's. */
  dims?: number;
  /** The new model's id. Default: the source's with its `-<n>d` suffix replaced by the new one. */
  modelId?: string;
}

/** Projects the model at `from` and writes the new root at `out`; returns its manifest. */
export function projectRoot(options: ProjectOptions): RootManifest {
  const source = readManifest(options.from);
  const fromDir = join(options.from, source.model_id);
  const read = (name: string) => new Uint8Array(readFileSync(join(fromDir, name)));
  const onnx = read(STATIC_MODEL_FILES.weights);
  const weights = readStaticWeights(onnx);
  const { vocabSize: V, dims: D } = weights;
  const k = options.dims ?? D;
  if (!(Number.isInteger(k) && k >= 1 && k <= D)) throw new Error(`--dims must be 1..${D}`);
  const modelId =
    options.modelId ??
    (k === D ? source.model_id : `${source.model_id.replace(/-\d+d$/, '')}-${k}d`);

  const files = new Map<string, Uint8Array>();
  for (const name of [STATIC_MODEL_FILES.tokenizer, STATIC_MODEL_FILES.tokenizerConfig])
    files.set(name, read(name));
  let projection = 'none: the rows of the source model unchanged';
  if (k === D) {
    files.set(STATIC_MODEL_FILES.config, read(STATIC_MODEL_FILES.config));
    files.set(STATIC_MODEL_FILES.weights, onnx);
  } else {
    // Rows as the runtime computes them, then their top-k principal directions (uncentered).
    const rows = new Float64Array(V * D);
    for (let i = 0; i < V; i++)
      for (let j = 0; j < D; j++)
        rows[i * D + j] = Math.fround(weights.table[i * D + j]! * weights.scale[i]!);
    const basis = topEigenvectors(secondMoment(rows, V, D), D, k);
    const projected = new Float64Array(V * k);
    let kept = 0;
    let total = 0;
    for (let i = 0; i < V; i++) {
      for (let j = 0; j < D; j++) total += rows[i * D + j]! ** 2;
      basis.forEach((u, c) => {
        let dot = 0;
        for (let j = 0; j < D; j++) dot += rows[i * D + j]! * u[j]!;
        projected[i * k + c] = dot;
        kept += dot * dot;
      });
    }
    const { table, scale } = quantizeRows(projected, V, k, 127);
    projection = `top ${k} principal directions (uncentered, each row once) of the dequantised int8 rows of ${source.model_id} (sha256 ${source.files[`${source.model_id}/${STATIC_MODEL_FILES.weights}`]?.sha256}), int8 per row again; ${((100 * kept) / total).toFixed(2)} % of the rows' squared norm kept`;
    const config = JSON.parse(new TextDecoder().decode(read(STATIC_MODEL_FILES.config))) as {
      hidden_size: number;
      anamnesis: Record<string, unknown>;
    };
    config.hidden_size = k;
    config.anamnesis = { ...config.anamnesis, dims: k, projection };
    files.set(
      STATIC_MODEL_FILES.config,
      new TextEncoder().encode(`${JSON.stringify(config, null, 2)}\n`),
    );
    files.set(
      STATIC_MODEL_FILES.weights,
      encodeStaticModel({
        table,
        scale,
        vocabSize: V,
        dims: k,
        producerVersion: '1',
        docString: `${modelId}: ${projection}. Mean-pool last_hidden_state over the attention mask and L2-normalise.`,
        metadata: Object.entries(config.anamnesis)
          .filter(([key]) => key !== 'kind')
          .map(([key, v]) => [key, String(v)]),
      }),
    );
  }
  files.set(
    NEIGHBOUR_TABLE_FILE,
    neighbourTableFile(
      files.get(STATIC_MODEL_FILES.tokenizer)!,
      files.get(STATIC_MODEL_FILES.weights)!,
    ),
  );

  // What the source records (sources, licences, exclusions, split) carries over as it is; its
  // identity and build settings go under `derived_from`.
  const { model_id, files: sourceFiles, build, derived_from, ...record } = source;
  return writeRoot(
    options.out,
    modelId,
    new Map([...files].map(([name, bytes]) => [`${modelId}/${name}`, bytes])),
    {
      ...record,
      derived_from: {
        model_id,
        files: sourceFiles,
        ...(build !== undefined ? { build } : {}),
        ...(derived_from !== undefined ? { derived_from } : {}),
      },
      build: { script: 'scripts/project.ts', dims: k, projection },
    },
  );
}
