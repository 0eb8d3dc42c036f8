/**
 * `pnpm bench:embed -- [--n 20000] [--model-dir DIR] [--json] [--docs]`: embedding throughput of the default model
 * (or of the model root `--model-dir` / `ANAMNESIS_MODEL_DIR` names, see `bench-model.ts`) in Node,
 * on the path apps get (`createModelEmbedder`: the static table in plain JavaScript) and on ONNX
 * Runtime (`runtime: 'onnx'`, transformers.js on onnxruntime-node), the same texts in one process,
 * batches of 1 and 64, with the ratio. Texts: short synthetic sentences (6–20 words of the model's
 * vocabulary, Zipf-like, fixed seed), like chat turns or notes. `--lang de|fr|es|ru|ja|zh`: texts of
 * common words of that language instead of English (non-ASCII text takes the full tokenizer, not
 * the engine's ASCII shortcut; Japanese and Chinese words are joined without spaces).
 */
import { parseArgs } from 'node:util';
import { createModelEmbedder, createTransformersEmbedder, type Embedder } from '@anamnesis/engine';
import { mulberry32 } from '@anamnesis/ranking';

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
  },
});
const n = Number(values.n);
if (!Number.isInteger(n) || n < 100) throw new Error('--n: an integer ≥ 100');

const modelDir = benchModelDir(values['model-dir']);
refuseDocsForOtherModel(values.docs, modelDir);
const options = await benchEmbedderOptions(modelDir);
const paths: [string, Embedder][] = [
  ['default (plain JavaScript)', await createModelEmbedder(options)],
  [
    'ONNX Runtime (runtime: onnx)',
    await createTransformersEmbedder({ ...options, runtime: 'onnx' }),
  ],
];

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
const words = lang === 'en' ? WORDS : OTHER_WORDS[lang]!.split(' ');
const joiner = lang === 'ja' || lang === 'zh' ? '' : ' ';
const texts = Array.from({ length: n }, () => {
  const length = 6 + Math.floor(random() * 15);
  const chosen = Array.from({ length }, () => words[Math.floor(random() ** 2 * words.length)]!);
  return `${chosen.join(joiner)}${joiner ? '.' : '。'}`;
});

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
      `Plain JavaScript / ONNX Runtime at batch 64: ${(js.batch_64! / onnx.batch_64!).toFixed(2)}×. The browser's default path is not timed apart here.`,
    ].join('\n'),
  });
