/**
 * Builds the default model, `anamnesis/static-multi-64d`, into `model/` (or `--out DIR`): trains
 * the multilingual 100-d model (`lib/train-root.ts`, kept in `.cache/static-multi-100d/`), then
 * projects it onto its top 64 principal directions (`lib/project-root.ts`). `model/manifest.json`
 * lists every file with its sha256 and carries the training's record over (sources and their
 * hashes, licences, what was excluded to keep the evaluation corpora out, the split, the settings)
 * with the 100-d files it was projected from. Deterministic (CPU only, one thread): `--verify`
 * trains and projects again in a temp dir and fails unless every byte is the same.
 *
 *   pnpm --filter @anamnesis/model-default build:default     # about 5-10 minutes on 2 cores
 *   pnpm --filter @anamnesis/model-default verify:default    # the same in a temp dir, compared
 *
 * Options: --out DIR, --cache DIR (the sources: GloVe's npm package, apt's lists; see train.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { cliArgs } from './lib/cli.ts';
import { DEFAULT_MULTI_OPTIONS } from './lib/multi-model.ts';
import { DEFAULT_PROJECTION, projectRoot } from './lib/project-root.ts';
import { rootBytes, sameRoots } from './lib/roots.ts';
import { CACHE_DIR, TRAINED_ROOT, trainRoot } from './lib/train-root.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Trains into `trained`, projects into `out`. */
function build(trained: string, out: string, cacheDir: string): void {
  trainRoot(trained, DEFAULT_MULTI_OPTIONS, cacheDir);
  const manifest = projectRoot({ from: trained, out, ...DEFAULT_PROJECTION });
  console.error(
    `[build:default] wrote ${manifest.model_id}: ${Object.keys(manifest.files).length} files, ${rootBytes(manifest)} bytes, to ${out}`,
  );
}

function main(): void {
  const { values } = parseArgs({
    args: cliArgs(),
    options: {
      out: { type: 'string' },
      cache: { type: 'string' },
      verify: { type: 'boolean', default: false },
    },
  });
  const modelDir = resolve(values.out ?? join(packageDir, 'model'));
  const cacheDir = resolve(values.cache ?? CACHE_DIR);
  if (!values.verify) {
    build(TRAINED_ROOT, modelDir, cacheDir);
    return;
  }
  const tmp = mkdtempSync(join(tmpdir(), 'anamnesis-default-'));
  try {
    build(join(tmp, 'trained'), join(tmp, 'model'), cacheDir);
    process.exitCode = sameRoots(modelDir, join(tmp, 'model'), 'verify:default') ? 0 : 1;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

main();
