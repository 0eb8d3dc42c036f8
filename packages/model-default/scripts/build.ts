/**
 * Builds the default embedding model into `model/` (or `--out DIR`) and writes `manifest.json`
 * with the sha256 of every file. Deterministic: the same source and options give the same bytes.
 *
 *   pnpm --filter @anamnesis/model-default build:model
 *   pnpm --filter @anamnesis/model-default verify:build     # rebuild in a temp dir, compare
 *
 * Options (defaults are the shipped model): --out DIR, --cache DIR, --model-id ID, --vocab N,
 * --sif-a A, --components K, --weighting frequency|uniform, --subwords none|chars,
 * --dims N, --levels L (quantised magnitudes ±L, 127 = int8), --max-length N.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { cliArgs } from './lib/cli.ts';
import { NEIGHBOUR_TABLE_FILE, STATIC_MODEL_FILES } from '../src/index.ts';
import { buildModel, DEFAULT_BUILD_OPTIONS, type BuildOptions } from './lib/model.ts';
import { neighbourTableFile } from './lib/neighbours.ts';
import { loadSource, SOURCE } from './lib/source.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export interface Manifest {
  model_id: string;
  /** Files relative to the model root, sorted, with their size and sha256. */
  files: Record<string, { bytes: number; sha256: string }>;
  source: { package: string; version: string; integrity: string };
  build: Record<string, unknown>;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Writes the files and manifest under `outDir`; returns the manifest. */
export function writeModel(outDir: string, options: BuildOptions, cacheDir: string): Manifest {
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
  const manifest: Manifest = {
    model_id: options.modelId,
    files: {},
    source: { package: SOURCE.name, version: SOURCE.version, integrity: SOURCE.integrity },
    build: built.summary,
  };
  for (const name of [...built.files.keys()].sort()) {
    const bytes = built.files.get(name)!;
    const path = join(outDir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    manifest.files[name] = { bytes: bytes.length, sha256: sha256(bytes) };
  }
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const total = Object.values(manifest.files).reduce((s, f) => s + f.bytes, 0);
  log(`wrote ${Object.keys(manifest.files).length} files, ${total} bytes, to ${outDir}`);
  return manifest;
}

/** Rebuilds with the default options into a temp dir and compares with the committed model. */
function verify(modelDir: string, cacheDir: string): boolean {
  const committedPath = join(modelDir, 'manifest.json');
  if (!existsSync(committedPath)) {
    console.error(`no ${committedPath}: run build:model first`);
    return false;
  }
  const committed = JSON.parse(readFileSync(committedPath, 'utf8')) as Manifest;
  const tmp = mkdtempSync(join(tmpdir(), 'anamnesis-model-'));
  try {
    const rebuilt = writeModel(tmp, DEFAULT_BUILD_OPTIONS, cacheDir);
    let ok = readFileSync(join(tmp, 'manifest.json')).equals(readFileSync(committedPath));
    if (!ok) console.error('manifest.json differs from the rebuilt one');
    const names = new Set([...Object.keys(committed.files), ...Object.keys(rebuilt.files)]);
    for (const name of [...names].sort()) {
      const want = committed.files[name]?.sha256;
      const got = rebuilt.files[name]?.sha256;
      const onDisk = existsSync(join(modelDir, name))
        ? sha256(readFileSync(join(modelDir, name)))
        : undefined;
      const same = want !== undefined && want === got && got === onDisk;
      console.log(`${same ? 'same' : 'DIFFERS'}  ${name}  ${got ?? '(missing)'}`);
      ok &&= same;
    }
    console.log(ok ? 'verify:build: the rebuild is byte-identical' : 'verify:build: MISMATCH');
    return ok;
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
  const modelDir = resolve(values.out ?? join(packageDir, 'model'));
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
  rmSync(join(modelDir, options.modelId), { recursive: true, force: true });
  writeModel(modelDir, options, cacheDir);
}

main();
