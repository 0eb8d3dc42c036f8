/**
 * `pnpm bench:embed -- [--n 20000] [--model-dir DIR] [--json] [--docs]`: embedding throughput of the default model
 * (or of the model root `--model-dir` / `ANAMNESIS_MODEL_DIR` names, see `bench-model.ts`) in Node,
 * on the path apps get (`createModelEmbedder`: the static table in plain JavaScript) and on ONNX
 * Runtime (`runtime: 'onnx'`, transformers.js on onnxruntime-node), the same texts in one process,
 * batches of 1 and 64, with the ratio. Texts: short synthetic sentences (6–20 words of the model's
 * vocabulary, Zipf-like, fixed seed), like chat turns or notes. `--lang de|fr|es|ru|ja|zh`: texts of
 * common words of that language instead of English (non-ASCII text takes the full tokenizer, not
 * the engine's ASCII shortcut; Japanese and Chinese words are joined without spaces).
 *
 * `pnpm bench:embed -- --browser [--model-dir DIR] [--json]`: what a model costs in headless
 * Chromium (the system `/usr/bin/chromium` with the e2e flags, see `e2e/chromium.ts`), in a
 * dedicated worker on the wasm path, as an app's worker loads it (`createModelEmbedder` with
 * `device: 'wasm'`; an ONNX model on the plain ONNX Runtime build the client's Vite plugin serves
 * under `/ort/`, one thread, as the client runs it on a page that is not cross-origin isolated;
 * the default model in plain JavaScript): the default model (`MODEL_ID`) and, with `--model-dir`
 * or `ANAMNESIS_MODEL_DIR`, that model root's model too, in the same run and browser, each in a
 * worker of its own (both served from one temporary model root, as `/models/default/<id>/…` and
 * `/models/other/<id>/…`). Per query: `embed([query])` for 200 short queries (3–8 words) after 20
 * warm-up calls, p50 and p95; per 1,000 memories: 1,000 texts (6–20 words) embedded in batches of
 * 64, median of 3 runs (after one untimed batch). Texts from the generator above, same seed,
 * English: the memories first, then the queries. The page is served cross-origin isolated, so the
 * worker's clock ticks in microseconds, not 0.1 ms. Prints a markdown table with the runtime path
 * as the engine reports it (`runtime` on `device`, `selection.reason`), the machine (CPU, cores,
 * load average before the build and after the measurements) and Chromium's version; `--json`: one
 * JSON object instead. `--n`, `--lang` and `--docs` are for the Node mode only.
 */
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createModelEmbedder, createTransformersEmbedder, type Embedder } from '@anamnesis/engine';
import { MODEL_ID } from '@anamnesis/model-default';
import { mulberry32 } from '@anamnesis/ranking';

import type { BenchWindow } from '../browser/main.ts';

import { benchEmbedderOptions, benchModelDir, refuseDocsForOtherModel } from './bench-model.ts';
import { commandLine, markdownTable, writeMeasurements } from './measurements.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string', default: '20000' },
    json: { type: 'boolean', default: false },
    docs: { type: 'boolean', default: false },
    'model-dir': { type: 'string' },
    lang: { type: 'string', default: 'en' },
    browser: { type: 'boolean', default: false },
  },
});
const n = Number(values.n);
if (!Number.isInteger(n) || n < 100) throw new Error('--n: an integer ≥ 100');

const modelDir = benchModelDir(values['model-dir']);
refuseDocsForOtherModel(values.docs, modelDir);

const random = mulberry32(42);
const WORDS =
  'the a to of and in is it you that he was for on are with as his they be at one have this from or had by word but what some we can out other were all there when up use your how said an each she which do their time if will way about many then them write would like so these her long make thing see him two has look more day could go come did number sound no most people my over know water than call first who may down side been now find any new work part take get place made live where after back little only round man year came show every good me give our under name very through just form sentence great think say help low line differ turn cause much mean before move right boy old too same tell does set three want air well also play small end put home read hand port large spell add even land here must big high such follow act why ask men change went light kind off need house picture try us again animal point mother world near build self earth father'.split(
    ' ',
  );
/** Common words of other languages (`--lang`), most common first, as the English list. */
const OTHER_WORDS: Record<string, string> = {
  de: 'der die und in den von zu das mit sich des auf für ist im dem nicht ein eine als auch es an werden aus er hat dass sie nach wird bei einer um am sind noch wie einem über einen so zum war haben nur oder aber vor zur bis mehr durch man sein wurde sei Datei Verzeichnis Zeit Jahr Haus Wasser Arbeit Kind Frau Mann Tag Stadt Auto Hund Katze Schule Freund Buch Musik Essen Reise groß klein neu alt gut schnell heute morgen kopieren löschen ändern zeigen',
  fr: 'de la le et les des en un du une que est pour qui dans a par plus pas au sur ne se ce il sont avec ou son fichier répertoire temps année maison eau travail enfant femme homme jour ville voiture chien chat école ami livre musique repas voyage grand petit nouveau vieux bon rapide aujourd demain copier supprimer changer afficher',
  es: 'de la que el en y a los se del las un por con no una su para es al lo como más o pero sus le ha me si sin sobre este ya archivo directorio tiempo año casa agua trabajo niño mujer hombre día ciudad coche perro gato escuela amigo libro música comida viaje grande pequeño nuevo viejo bueno rápido hoy mañana copiar borrar cambiar mostrar',
  ru: 'и в не на я быть он с что а по это она этот к но они мы как из у который то за свой что весь год от так о для ты же все тот мочь вы человек такой его сказать только или ещё файл каталог время дом вода работа ребёнок женщина мужчина день город машина собака кошка школа друг книга музыка еда поездка большой маленький новый старый хороший быстрый сегодня завтра копировать удалить изменить показать',
  ja: 'の に は を た が で て と し れ さ ある いる も する から な こと として い や れる など なっ ない この ため その あっ よう また もの という あり まで られ なる へ か だ これ によって により おり より による ず なり られる において ば なかっ なく しかし について せ だっ ファイル ディレクトリ 時間 年 家 水 仕事 子供 女 男 日 町 車 犬 猫 学校 友達 本 音楽 食事 旅行 大きい 小さい 新しい 古い 良い 速い 今日 明日 コピー 削除 変更 表示',
  zh: '的 一 是 不 了 在 人 有 我 他 这 个 们 中 来 上 大 为 和 国 地 到 以 说 时 要 就 出 会 可 也 你 对 生 能 而 子 那 得 于 着 下 自 之 年 过 发 后 作 里 文件 目录 时间 房子 水 工作 孩子 女人 男人 天 城市 汽车 狗 猫 学校 朋友 书 音乐 饭 旅行 大 小 新 旧 好 快 今天 明天 复制 删除 改变 显示',
};
const lang = values.lang;
if (values.docs && lang !== 'en')
  throw new Error('--docs records the English texts: leave out --lang');
if (lang !== 'en' && !Object.hasOwn(OTHER_WORDS, lang))
  throw new Error(`--lang: one of en, ${Object.keys(OTHER_WORDS).join(', ')}`);
if (values.browser && (lang !== 'en' || values.docs))
  throw new Error('--browser times English texts and records nothing: leave out --lang and --docs');
const words = lang === 'en' ? WORDS : OTHER_WORDS[lang]!.split(' ');
const joiner = lang === 'ja' || lang === 'zh' ? '' : ' ';
/** `count` sentences of `min`–`max` words (Zipf-like), from the one seeded `random`. */
const sentences = (count: number, min: number, max: number) =>
  Array.from({ length: count }, () => {
    const length = min + Math.floor(random() * (max - min + 1));
    const chosen = Array.from({ length }, () => words[Math.floor(random() ** 2 * words.length)]!);
    return `${chosen.join(joiner)}${joiner ? '.' : '。'}`;
  });

if (values.browser) await browserMode();
else await nodeMode();

async function nodeMode(): Promise<void> {
  const options = await benchEmbedderOptions(modelDir);
  const paths: [string, Embedder][] = [
    ['default (plain JavaScript)', await createModelEmbedder(options)],
    [
      'ONNX Runtime (runtime: onnx)',
      await createTransformersEmbedder({ ...options, runtime: 'onnx' }),
    ],
  ];
  const texts = sentences(n, 6, 20);

  const rows: Record<string, Record<string, number>> = {};
  for (const [name, embedder] of paths) {
    rows[name] = {};
    for (const batch of [1, 64]) {
      await embedder.embed(texts.slice(0, 64)); // warm-up
      const count = batch === 1 ? Math.min(n, 5000) : n;
      const start = performance.now();
      for (let i = 0; i < count; i += batch) await embedder.embed(texts.slice(i, i + batch));
      rows[name][`batch_${batch}`] = Math.round(count / ((performance.now() - start) / 1000));
    }
    await embedder.dispose?.();
  }
  const [js, onnx] = Object.values(rows) as [Record<string, number>, Record<string, number>];
  if (values.json) {
    console.log(
      JSON.stringify({
        n,
        model: options.model,
        lang,
        js_texts_per_s: js,
        onnx_texts_per_s: onnx,
        ratio_batch_64: js.batch_64! / onnx.batch_64!,
      }),
    );
  } else {
    console.log(
      `embedding ${n} short texts (${lang}) with ${options.model} in Node ${process.version} (texts/s, one process):`,
    );
    for (const [name, r] of Object.entries(rows))
      console.log(`  ${name.padEnd(30)} batch 1: ${r.batch_1}  batch 64: ${r.batch_64}`);
    console.log(
      `  plain JavaScript / ONNX Runtime at batch 64: ${(js.batch_64! / onnx.batch_64!).toFixed(2)}×`,
    );
  }
  if (values.docs)
    writeMeasurements({
      id: 'embed',
      title: 'Embedding by path',
      command: commandLine('bench:embed'),
      body: [
        `${n} short texts (6–20 common English words), the default model, texts/s in one process (batch 1: the first ${Math.min(n, 5000)}).`,
        '',
        markdownTable([
          ['path', 'batch 1', 'batch 64'],
          ...Object.entries(rows).map(([name, r]) => [name, String(r.batch_1), String(r.batch_64)]),
        ]),
        '',
        `Plain JavaScript / ONNX Runtime at batch 64: ${(js.batch_64! / onnx.batch_64!).toFixed(2)}×. In Chromium: \`pnpm bench:embed -- --browser\`.`,
      ].join('\n'),
    });
}

/** The `--browser` mode (see the module comment). */
async function browserMode(): Promise<void> {
  const [{ launchProfile }, { openPage, serve }, { MODEL_ROOT }] = await Promise.all([
    import('../../../e2e/chromium.ts'),
    import('./bench-page.ts'),
    import('@anamnesis/client/vite'),
  ]);
  const plan = { warmup: 20, queries: 200, memories: 1000, batch: 64, runs: 3 };
  const memories = sentences(plan.memories, 6, 20);
  const queries = sentences(plan.warmup + plan.queries, 3, 8);
  const models = [{ name: 'default', model: MODEL_ID, root: MODEL_ROOT }];
  if (modelDir !== undefined)
    models.push({
      name: 'other',
      model: (await benchEmbedderOptions(modelDir)).model,
      root: modelDir,
    });

  const loadavg = () =>
    os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ');
  const loadBefore = loadavg();
  const results = [];
  let chromium: string;
  const cleanup: (() => unknown)[] = [];
  try {
    // Both model roots in one folder, each in a folder of its own (their ids may be the same),
    // whole: a model that borrows a static model's word table finds it beside it, and the manifest
    // is served as an app serves it (the engine keeps a static model's files by it).
    const served = mkdtempSync(join(tmpdir(), 'anamnesis-bench-embed-models-'));
    cleanup.push(() => rmSync(served, { recursive: true, force: true }));
    for (const m of models) {
      if (!existsSync(join(m.root, m.model, 'config.json')))
        throw new Error(
          `${m.root}/${m.model}/config.json is missing: not a model root for ${m.model}`,
        );
      cpSync(m.root, join(served, m.name), { recursive: true, dereference: true });
    }
    const { server, url: baseURL } = await serve({
      plugin: {
        modelRoot: served,
        ...(modelDir !== undefined ? { ortBuilds: ['plain' as const] } : {}),
      },
      isolated: true,
    });
    cleanup.push(() => server.close());
    const profile = await launchProfile('anamnesis-bench-embed-', { baseURL });
    cleanup.push(() => profile.close());
    // Everything comes from the bench's own server: a request to another origin fails the run.
    const offOrigin: string[] = [];
    profile.context.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(baseURL) && !url.startsWith('data:') && !url.startsWith('blob:'))
        offOrigin.push(url);
    });
    const page = await openPage(profile.context, '/');
    // The full version (the user agent's is reduced to <major>.0.0.0).
    const cdp = await profile.context.newCDPSession(page);
    const { product } = (await cdp.send('Browser.getVersion')) as { product: string };
    await cdp.detach();
    chromium = /Chrome\/([\d.]+)/.exec(product)?.[1] ?? product;
    for (const m of models) {
      const job = {
        model: m.model,
        models: `/models/${m.name}/`,
        warmup: queries.slice(0, plan.warmup),
        queries: queries.slice(plan.warmup),
        memories,
        batch: plan.batch,
        runs: plan.runs,
      };
      const r = await page.evaluate(
        (j) => (window as unknown as BenchWindow).bench.embedCost(j),
        job,
      );
      if (!r.crossOriginIsolated) throw new Error('the bench page is not cross-origin isolated');
      results.push({ ...m, ...r });
    }
    if (offOrigin.length > 0)
      throw new Error(`requests to other origins: ${offOrigin.slice(0, 5).join(', ')}`);
  } finally {
    for (const undo of cleanup.reverse()) await undo();
  }
  const loadAfter = loadavg();

  const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);
  const quantile = (xs: readonly number[], q: number) =>
    sorted(xs)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;
  const rows = results.map((r) => ({
    model: r.model,
    root: r.name === 'default' ? 'default' : r.root,
    path:
      `${r.runtime ?? '?'} on ${r.device}` +
      (r.selection
        ? ` (selection: ${r.selection.reason}, requested ${r.selection.requested})`
        : ''),
    dims: r.dims,
    load_ms: Number(r.loadMs.toFixed(1)),
    query_p50_ms: Number(quantile(r.perQuery, 0.5).toFixed(3)),
    query_p95_ms: Number(quantile(r.perQuery, 0.95).toFixed(3)),
    per_1000_memories_ms: Number(quantile(r.perRun, 0.5).toFixed(1)),
    per_1000_memories_runs_ms: r.perRun.map((x) => Number(x.toFixed(1))),
  }));
  const cpus = os.cpus();
  const machine = {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    load_before: loadBefore,
    load_after: loadAfter,
    chromium,
  };
  if (values.json) {
    console.log(JSON.stringify({ plan, rows, machine }));
    return;
  }
  console.log(
    `Embedding cost in headless Chromium ${chromium}, dedicated worker, wasm path ` +
      `(per query: embed([q]) of ${plan.queries} queries of 3–8 words after ${plan.warmup} warm-up calls; ` +
      `per 1,000 memories: ${plan.memories} texts of 6–20 words in batches of ${plan.batch}, median of ${plan.runs} runs):\n`,
  );
  console.log(
    markdownTable([
      [
        'model',
        'runtime path',
        'dims',
        'per query p50 ms',
        'per query p95 ms',
        'per 1,000 memories ms',
      ],
      ...rows.map((r) => [
        r.root === 'default' ? `${r.model} (default)` : `${r.model} (${r.root})`,
        r.path,
        String(r.dims),
        r.query_p50_ms.toFixed(3),
        r.query_p95_ms.toFixed(3),
        `${r.per_1000_memories_ms.toFixed(1)} (runs ${r.per_1000_memories_runs_ms.join(', ')})`,
      ]),
    ]),
  );
  console.log(
    `\nmodel load (createModelEmbedder): ${rows.map((r) => `${r.model} ${r.load_ms} ms`).join(', ')}`,
  );
  console.log(
    `machine: ${machine.cpu}, ${machine.cores} cores; Chromium ${chromium} headless; ` +
      `load average (1, 5, 15 min) before ${loadBefore}, after ${loadAfter}`,
  );
}
