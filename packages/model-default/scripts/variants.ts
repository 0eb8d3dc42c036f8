/**
 * Size against quality of smaller variants of the English model (`anamnesis/glove-100d-sif`, the
 * default until issue 67): builds each variant (source parsed once) into a temp model root, runs
 * every line of `bench:quality` on it (`--model-dir`), and prints Markdown tables: the files' bytes
 * on disk and compressed, then recall@10 and MRR of the `default` profile per corpus line with the
 * change against the shipped English model.
 *
 *   pnpm bench:model-variants [-- --locomo DIR] [--vocab 50000,30000] [--dims 100,64]
 *                                [--levels 127,7] [--max-loss 0.005] [--json]
 *
 * Variants: without `--vocab`/`--dims`/`--levels`, every vocabulary of 50k/40k/30k/20k words with
 * every dimension of 100/80/64/50 (int8), and the shipped 50k × 100 with coarser quantisation
 * (±31, ±15, ±7: the values of int6, int5, int4, still stored as int8); with any of them, their
 * cross product (the missing lists take the shipped value). The shipped options come first and are
 * the reference; the script checks that the reference rebuild is byte-identical to `english/`.
 *
 * Sizes: the four files of the model as built (bytes on disk), and gzip / brotli at level 6 of each
 * file summed: what a static server that compresses every file sends (`bench:size`'s server, like
 * most, sends the `.onnx` file as it is and compresses only the JSON).
 *
 * "ok" marks a variant that loses at most `--max-loss` (0.005) recall@10 on every line against the
 * reference. That rule is fixed in advance. Since issue 42 the lines are `bench:quality`'s dev
 * lines only (the corpora's held-out questions are `bench:heldout`'s), so picking among variants
 * here tunes on dev questions, as it should.
 *
 * `--json`: the last line printed is one JSON object with every number of the tables.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

import { cliArgs } from './lib/cli.ts';
import { buildModel, DEFAULT_BUILD_OPTIONS, type BuildOptions } from './lib/model.ts';
import { loadSource } from './lib/source.ts';

const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const repoDir = resolve(packageDir, '../..');

const { values } = parseArgs({
  args: cliArgs(),
  options: {
    locomo: { type: 'string' },
    corpora: { type: 'string' },
    vocab: { type: 'string' },
    dims: { type: 'string' },
    levels: { type: 'string' },
    'max-loss': { type: 'string', default: '0.005' },
    cache: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
// `pnpm bench:model-variants` runs in this package; relative paths are relative to where it was typed.
const cwd = process.env.INIT_CWD ?? process.cwd();
const locomo = resolve(cwd, values.locomo ?? join(repoDir, '../shared/data/locomo-dev'));
const maxLoss = Number(values['max-loss']);
const log = (msg: string) => console.error(`[model-variants] ${msg}`);

interface Variant {
  vocabSize: number;
  dims: number;
  quantLevels: number;
}
const d = DEFAULT_BUILD_OPTIONS;
const shipped: Variant = { vocabSize: d.vocabSize, dims: d.dims, quantLevels: d.quantLevels };
const list = (s: string | undefined, fallback: number[]) =>
  s === undefined ? fallback : s.split(',').map(Number);

function variantList(): Variant[] {
  const out: Variant[] = [];
  const custom =
    values.vocab !== undefined || values.dims !== undefined || values.levels !== undefined;
  const vocabs = list(values.vocab, custom ? [d.vocabSize] : [50_000, 40_000, 30_000, 20_000]);
  const dims = list(values.dims, custom ? [d.dims] : [100, 80, 64, 50]);
  const levels = list(values.levels, [d.quantLevels]);
  for (const vocabSize of vocabs)
    for (const dm of dims)
      for (const q of levels) out.push({ vocabSize, dims: dm, quantLevels: q });
  if (!custom) for (const q of [31, 15, 7]) out.push({ ...shipped, quantLevels: q });
  const same = (a: Variant, b: Variant) =>
    a.vocabSize === b.vocabSize && a.dims === b.dims && a.quantLevels === b.quantLevels;
  return [shipped, ...out.filter((v) => !same(v, shipped))];
}

const name = (v: Variant) =>
  `${v.vocabSize / 1000}k × ${v.dims}${v.quantLevels === 127 ? '' : ` ±${v.quantLevels}`}`;

/** Bytes of the files, and gzip / brotli at level 6 of each file, summed. */
function sizes(files: Map<string, Uint8Array>): { bytes: number; gzip: number; brotli: number } {
  let bytes = 0;
  let gzip = 0;
  let brotli = 0;
  for (const data of files.values()) {
    bytes += data.length;
    gzip += gzipSync(data, { level: 6 }).length;
    brotli += brotliCompressSync(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 6,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }).length;
  }
  return { bytes, gzip, brotli };
}

interface LineScore {
  corpus: string;
  split: string;
  questions: number;
  recall: number;
  mrr: number;
}

/** Every line of `bench:quality` on the model under `root`, for the `default` profile. */
function quality(root: string): { lines: LineScore[]; summary: string } {
  const args = ['--filter', '@anamnesis/bench', 'exec', 'tsx', 'src/bench-quality.ts'];
  args.push('--locomo', locomo, '--model-dir', root, '--json');
  if (values.corpora !== undefined) args.push('--corpora', resolve(cwd, values.corpora));
  const out = execFileSync('pnpm', args, {
    cwd: repoDir,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 64 << 20,
  });
  const printed = out.trim().split('\n');
  const report = JSON.parse(printed.at(-1)!) as {
    k: number;
    lines: {
      corpus: string;
      split: string;
      rankers: Record<string, { questions: number; mrr: number } & Record<string, number>>;
    }[];
  };
  return {
    summary: printed.find((l) => l.startsWith('bench:quality:')) ?? '',
    lines: report.lines.map((l) => {
      const r = l.rankers.default!;
      return {
        corpus: l.corpus,
        split: l.split,
        questions: r.questions,
        recall: r[`recall@${report.k}`]!,
        mrr: r.mrr,
      };
    }),
  };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

interface Row {
  variant: string;
  options: Variant;
  bytes: number;
  gzip: number;
  brotli: number;
  lines: LineScore[];
}

async function main(): Promise<void> {
  const { glove } = loadSource(resolve(cwd, values.cache ?? join(packageDir, '.cache')), log);
  const variants = variantList();
  const rows: Row[] = [];
  const started = performance.now();
  for (const v of variants) {
    const root = mkdtempSync(join(tmpdir(), 'anamnesis-variant-'));
    try {
      const options: BuildOptions = { ...d, ...v };
      const built = buildModel(glove, options);
      for (const [file, data] of built.files) {
        mkdirSync(dirname(join(root, file)), { recursive: true });
        writeFileSync(join(root, file), data);
      }
      writeFileSync(join(root, 'manifest.json'), JSON.stringify({ model_id: options.modelId }));
      if (v === variants[0]) {
        // The reference must be the shipped English model, byte for byte.
        const manifest = JSON.parse(readFileSync(join(packageDir, 'english/manifest.json'), 'utf8'))
          .files as Record<string, { sha256: string }>;
        for (const [file, data] of built.files)
          if (manifest[file]?.sha256 !== sha256(data))
            throw new Error(`the reference build differs from english/${file}: run build:model`);
      }
      const size = sizes(built.files);
      const q = quality(root);
      log(`${name(v)}: ${size.bytes} bytes; ${q.summary}`);
      rows.push({ variant: name(v), options: v, ...size, lines: q.lines });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }
  const seconds = (performance.now() - started) / 1000;

  const ref = rows[0]!;
  const f3 = (x: number) => x.toFixed(3);
  const signed = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(3)}`;
  const mb = (x: number) => (x / 1e6).toFixed(2);
  const lineName = (l: LineScore) =>
    `${l.corpus.replace(/^chat \(LoCoMo\)$/, 'chat').replace(/^lang-/, '')} ${l.split === 'held-out' ? 'h-o' : l.split}`;
  const worst = (r: Row) => Math.min(...r.lines.map((l, i) => l.recall - ref.lines[i]!.recall));
  const ok = (r: Row) =>
    r.lines.every((l, i) => ref.lines[i]!.recall - l.recall <= maxLoss + 1e-12);

  console.log(
    `bench:model-variants: ${rows.length} variants × ${ref.lines.length} bench:quality lines (default profile), ` +
      `reference ${ref.variant} (the English model); ${new Date().toISOString().slice(0, 10)}, ` +
      `${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.versions.node}, ${seconds.toFixed(0)} s`,
  );
  console.log(
    `\nSize (MB = 10^6 bytes; gzip / brotli: level 6, every file) and the worst change of R@10 on any line; ok: loses ≤ ${maxLoss} R@10 on every line\n`,
  );
  console.log('| variant | words × dims | bytes | MB | gzip MB | brotli MB | worst ΔR@10 | ok |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
  for (const r of rows)
    console.log(
      `| ${r.variant}${r === ref ? ' (shipped)' : ''} | ${r.options.vocabSize} × ${r.options.dims} | ${r.bytes} | ${mb(r.bytes)} | ${mb(r.gzip)} | ${mb(r.brotli)} | ${r === ref ? '—' : signed(worst(r))} | ${r === ref ? '—' : ok(r) ? 'ok' : 'no'} |`,
    );
  for (const [metric, pick] of [
    ['R@10', (l: LineScore) => l.recall],
    ['MRR', (l: LineScore) => l.mrr],
  ] as const) {
    console.log(
      `\n${metric} of \`default\` per line (questions), and the change against the English model\n`,
    );
    console.log(
      `| variant | ${ref.lines.map((l) => `${lineName(l)} (${l.questions})`).join(' | ')} |`,
    );
    console.log(`| --- | ${ref.lines.map(() => '---:').join(' | ')} |`);
    for (const r of rows)
      console.log(
        `| ${r.variant} | ${r.lines
          .map((l, i) =>
            r === ref ? f3(pick(l)) : `${f3(pick(l))} (${signed(pick(l) - pick(ref.lines[i]!))})`,
          )
          .join(' | ')} |`,
      );
  }
  const qualifying = rows.filter((r) => r !== ref && ok(r));
  const smallest = qualifying.sort((a, b) => a.bytes - b.bytes || a.brotli - b.brotli)[0];
  console.log(
    `\nsmallest variant losing ≤ ${maxLoss} R@10 on every line: ${smallest ? `${smallest.variant} (${smallest.bytes} bytes, ${mb(smallest.brotli)} MB brotli)` : 'none'}`,
  );
  if (values.json)
    console.log(
      JSON.stringify({
        reference: ref.variant,
        max_loss: maxLoss,
        smallest: smallest?.variant ?? null,
        variants: rows.map((r) => ({ ...r, ok: r === ref ? null : ok(r) })),
      }),
    );
}

await main();
