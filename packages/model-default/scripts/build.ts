/**
 * Builds the English model (`anamnesis/glove-100d-sif`, the default until issue 67; now a named
 * option, see `ENGLISH_MODEL_ID`) into `english/` (or `--out DIR`) and writes `manifest.json` with
 * the sha256 of every file. Deterministic: the same source and options give the same bytes.
 *
 *   pnpm --filter @anamnesis/model-default build:model
 *   pnpm --filter @anamnesis/model-default verify:build     # rebuild in a temp dir, compare
 *
 * Options (defaults are the shipped English model): --out DIR, --cache DIR, --model-id ID,
 * --vocab N, --sif-a A, --components K, --weighting frequency|uniform, --subwords none|chars,
 * --dims N, --levels L (quantised magnitudes ±L, 127 = int8), --max-length N.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { cliArgs } from './lib/cli.ts';
import { NEIGHBOUR_TABLE_FILE, STATIC_MODEL_FILES } from '../src/index.ts';
import { buildModel, DEFAULT_BUILD_OPTIONS, type BuildOptions } from './lib/model.ts';
import { neighbourTableFile } from './lib/neighbours.ts';
import { rootBytes, sameRoots, writeRoot, type RootManifest } from './lib/roots.ts';
import { loadSource, SOURCE } from './lib/source.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Writes the files and manifest under `outDir`; returns the manifest. */
export function writeModel(outDir: string, options: BuildOptions, cacheDir: string): RootManifest {
  const log = (msg: string) => console.error(`[build:model] ${msg}`);
  const started = performance.now();
  const { glove } = loadSource(cacheDir, log);
  log(`parsed ${glove.words.length} vectors in ${Math.round(performance.now() - started)} ms`);
  const built = buildModel(glove, options);
  const file = (name: string) => built.files.get(`${options.modelId}/${name}`)!;
  const tableStarted = performance.now();
  built.files.set(
    `${options.modelId}/${NEIGHBOUR_TABLE_FILE}`,
    neighbourTableFile(file(STATIC_MODEL_FILES.tokenizer), file(STATIC_MODEL_FILES.weights)),
  );
  log(`word neighbours in ${Math.round(performance.now() - tableStarted)} ms`);
  const manifest = writeRoot(outDir, options.modelId, built.files, {
    source: { package: SOURCE.name, version: SOURCE.version, integrity: SOURCE.integrity },
    build: built.summary,
  });
  log(
    `wrote ${Object.keys(manifest.files).length} files, ${rootBytes(manifest)} bytes, to ${outDir}`,
  );
  return manifest;
}

/** Rebuilds with the default options into a temp dir and compares with the committed model. */
function verify(modelDir: string, cacheDir: string): boolean {
  const tmp = mkdtempSync(join(tmpdir(), 'anamnesis-model-'));
  try {
    writeModel(tmp, DEFAULT_BUILD_OPTIONS, cacheDir);
    return sameRoots(modelDir, tmp, 'verify:build');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function main(): void {
  const { values } = parseArgs({
    args: cliArgs(),
    options: {
      out: { type: 'string' },
      cache: { type: 'string' },
      verify: { type: 'boolean', default: false },
      'model-id': { type: 'string' },
      vocab: { type: 'string' },
      'sif-a': { type: 'string' },
      components: { type: 'string' },
      weighting: { type: 'string' },
      subwords: { type: 'string' },
      'max-length': { type: 'string' },
      dims: { type: 'string' },
      levels: { type: 'string' },
    },
  });
  const modelDir = resolve(values.out ?? join(packageDir, 'english'));
  const cacheDir = resolve(values.cache ?? join(packageDir, '.cache'));
  if (values.verify) {
    process.exitCode = verify(modelDir, cacheDir) ? 0 : 1;
    return;
  }
  const d = DEFAULT_BUILD_OPTIONS;
  const options: BuildOptions = {
    ...d,
    modelId: values['model-id'] ?? d.modelId,
    vocabSize: values.vocab ? Number(values.vocab) : d.vocabSize,
    sifA: values['sif-a'] ? Number(values['sif-a']) : d.sifA,
    removeComponents: values.components ? Number(values.components) : d.removeComponents,
    componentWeighting: (values.weighting ??
      d.componentWeighting) as BuildOptions['componentWeighting'],
    subwords: (values.subwords ?? d.subwords) as BuildOptions['subwords'],
    maxLength: values['max-length'] ? Number(values['max-length']) : d.maxLength,
    dims: values.dims ? Number(values.dims) : d.dims,
    quantLevels: values.levels ? Number(values.levels) : d.quantLevels,
  };
  writeModel(modelDir, options, cacheDir);
}

main();
