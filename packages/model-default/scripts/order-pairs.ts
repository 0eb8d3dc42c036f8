/**
 * Writes the training pairs of the word-order experiment (`order/train_order.py`, issue 67) as
 * token ids of the default model's tokenizer, so that the Python trainer tokenises nothing and the
 * ids are the ones transformers.js feeds the model at runtime ([CLS] … [SEP], checked against
 * `@huggingface/tokenizers` on a sample). The descriptions, the leakage exclusions and the split
 * are the multilingual static model's (`lib/training-data.ts`); so are the 31 tasks (English
 * short ↔ long; per language long ↔ English long, short ↔ English short, short ↔ its own long,
 * short ↔ English long, English short ↔ its long), one pair per distinct text on each side. With
 * `--wordnet DIR` (Debian's `wordnet-base`: `/usr/share/wordnet`), one more English task: each
 * synset's words ↔ its definition ("dermatologist, skin doctor" ↔ "a doctor who specializes in the
 * physiology and pathology of the skin"), the gloss's quoted examples left out.
 *
 *   pnpm --filter @anamnesis/model-default exec tsx scripts/order-pairs.ts   # writes .cache/order/
 *
 * Output under `.cache/order/` (or `--out DIR`):
 * - `texts.i32`: every distinct text's ids, concatenated (little-endian int32);
 * - `offsets.i32`: where each text starts in `texts.i32` (one more entry than texts);
 * - `tasks.json`: `[{ name, lang, repeat, a: number[], b: number[] }]`, indices into the texts,
 *   and `validation` / `test`: `{ lang: { en: number[], other: number[] } }` pairs of long texts
 *   for the trainer's cross-language check (never trained on).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { cliArgs } from './lib/cli.ts';
import { LANGUAGES, type Language } from './lib/ddtp.ts';
import { evaluationPackages } from './lib/leakage.ts';
import { CACHE_DIR } from './lib/train-root.ts';
import { loadTrainingData, SPLIT_SALT, type Split } from './lib/training-data.ts';
import { definitionOf, plainWord, readWordNet } from './lib/wordnet.ts';
import { checkAgainstLibrary, WordPiece } from './lib/wordpiece.ts';

const packageDir = resolve(import.meta.dirname, '..');
const modelDir = join(packageDir, 'model', 'anamnesis', 'static-multi-64d');
const corporaDir = resolve(packageDir, '../../apps/bench/corpora');

/** Tokens of a text kept in training, [CLS] and [SEP] included. */
const MAX_TOKENS = 128;
/** A language with fewer training items is repeated to about this many per epoch (as the static model). */
const MIN_ITEMS_PER_EPOCH = 4_000;

function main(): void {
  const { values } = parseArgs({
    args: cliArgs(),
    options: { out: { type: 'string' }, wordnet: { type: 'string' } },
  });
  const out = resolve(values.out ?? join(CACHE_DIR, 'order'));
  const log = (m: string) => console.error(`[order-pairs] ${m}`);

  const tokenizerText = readFileSync(join(modelDir, 'tokenizer.json'), 'utf8');
  const tokenizerJson = JSON.parse(tokenizerText) as { model: { vocab: Record<string, number> } };
  const tokenizerConfig = JSON.parse(
    readFileSync(join(modelDir, 'tokenizer_config.json'), 'utf8'),
  ) as Record<string, unknown>;
  const vocab: string[] = [];
  for (const [token, id] of Object.entries(tokenizerJson.model.vocab)) vocab[id] = token;
  const wordPiece = new WordPiece(vocab);
  const cls = tokenizerJson.model.vocab['[CLS]']!;
  const sep = tokenizerJson.model.vocab['[SEP]']!;

  const data = loadTrainingData(CACHE_DIR, evaluationPackages(corporaDir), SPLIT_SALT, log);
  const sample: string[] = [];
  data.items.forEach((item, i) => {
    if (i % 53 === 0) for (const t of Object.values(item.texts)) sample.push(t.short, t.long);
  });
  checkAgainstLibrary(wordPiece, tokenizerText, tokenizerConfig, sample);
  log(`${sample.length} sample texts tokenised as @huggingface/tokenizers does`);

  const texts: number[][] = [];
  const textAt = new Map<string, number>();
  const text = (s: string): number => {
    let at = textAt.get(s);
    if (at === undefined) {
      at = texts.length;
      textAt.set(s, at);
      texts.push([cls, ...wordPiece.encode(s).slice(0, MAX_TOKENS - 2), sep]);
    }
    return at;
  };

  const pairLists = new Map<string, { lang: Language; pairs: [number, number][] }>();
  const add = (lang: Language, name: string, a: string | undefined, b: string | undefined) => {
    if (!a || !b) return;
    const entry = pairLists.get(name) ?? { lang, pairs: [] };
    entry.pairs.push([text(a), text(b)]);
    pairLists.set(name, entry);
  };
  const items = new Map<Language, number>();
  const held: Record<Exclude<Split, 'train'>, Record<string, { en: number[]; other: number[] }>> = {
    validation: {},
    test: {},
  };
  for (const item of data.items) {
    const en = item.texts.en;
    if (!en) continue;
    if (item.split !== 'train') {
      for (const lang of LANGUAGES) {
        const t = item.texts[lang];
        if (lang === 'en' || !t?.long || !en.long) continue;
        const list = (held[item.split][lang] ??= { en: [], other: [] });
        list.en.push(text(en.long));
        list.other.push(text(t.long));
      }
      continue;
    }
    add('en', 'en short↔long', en.short, en.long);
    for (const lang of LANGUAGES) {
      const t = item.texts[lang];
      if (lang === 'en' || !t) continue;
      items.set(lang, (items.get(lang) ?? 0) + 1);
      add(lang, `${lang} long↔en long`, t.long, en.long);
      add(lang, `${lang} short↔en short`, t.short, en.short);
      add(lang, `${lang} short↔long`, t.short, t.long);
      add(lang, `${lang} short↔en long`, t.short, en.long);
      add(lang, `en short↔${lang} long`, en.short, t.long);
    }
  }
  if (values.wordnet !== undefined) {
    // each synset's words ↔ its definition; definitions of fewer than three words left out
    for (const synset of readWordNet(values.wordnet)) {
      const definition = definitionOf(synset.gloss);
      if (definition.split(/\s+/u).length < 3) continue;
      const words = [...new Set(synset.words.map(plainWord))].join(', ');
      add('en', 'en wordnet words↔definition', words, definition);
    }
  }
  const tasks = [...pairLists]
    .map(([name, { lang, pairs }]) => {
      const seenA = new Set<number>();
      const seenB = new Set<number>();
      const kept = pairs.filter(([a, b]) => {
        if (a === b || seenA.has(a) || seenB.has(b)) return false;
        seenA.add(a);
        seenB.add(b);
        return true;
      });
      const repeat =
        lang === 'en' ? 1 : Math.max(1, Math.round(MIN_ITEMS_PER_EPOCH / items.get(lang)!));
      return { name, lang, repeat, a: kept.map(([a]) => a), b: kept.map(([, b]) => b) };
    })
    .sort((x, y) => (x.name < y.name ? -1 : x.name > y.name ? 1 : 0));

  mkdirSync(out, { recursive: true });
  const offsets = new Int32Array(texts.length + 1);
  texts.forEach((t, i) => (offsets[i + 1] = offsets[i]! + t.length));
  const flat = new Int32Array(offsets[texts.length]!);
  texts.forEach((t, i) => flat.set(t, offsets[i]));
  writeFileSync(join(out, 'texts.i32'), flat);
  writeFileSync(join(out, 'offsets.i32'), offsets);
  writeFileSync(
    join(out, 'tasks.json'),
    JSON.stringify({ vocab_size: vocab.length, cls, sep, tasks, ...held }),
  );
  log(
    `${texts.length} texts, ${flat.length} ids; tasks: ${tasks.map((t) => `${t.name} ${t.a.length}${t.repeat > 1 ? `×${t.repeat}` : ''}`).join(', ')}; wrote ${out}`,
  );
}

main();
