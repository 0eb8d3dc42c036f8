/**
 * Trains the multilingual static model (`anamnesis/static-multi-100d`, see `lib/multi-model.ts`
 * and `lib/train-root.ts`) into `.cache/static-multi-100d/` (or `--out DIR`): the 100-d model root
 * that the default model is projected from (`scripts/build-default.ts` trains and projects in one
 * go, and `verify:default` checks both steps byte for byte), kept out of the repo. For experiments:
 * its options change the training, and `bench:quality --model-dir` reads the root it writes.
 *
 *   pnpm --filter @anamnesis/model-default train:model              # about 5-10 minutes on 2 cores
 *
 * Sources: GloVe from the npm package (`lib/source.ts`, as `build.ts`), Debian's descriptions from
 * apt's lists (`lib/ddtp.ts`; run as root, or run `apt-get -o Acquire::Languages=en,de,fr,es,ru,ja,zh_CN
 * update` first). Options for experiments (the defaults are the shipped model's): --out DIR, --min-items N,
 * --cache DIR, --epochs N, --lr X, --glove-lr X (scale of GloVe rows' rate), --temperature X,
 * --english N, --components K, --seed N, --locomo DIR (log LoCoMo vector recall after each epoch),
 * --word-pairs N (train on N word translations a language from bilingual dictionaries,
 * `lib/dictionaries.ts`), --word-rounds R (an English word's first R translations), --dictionary-words
 * N (N of the dictionaries' everyday words a language added to the vocabulary), --over-budget (write
 * a root over the 8 MB budget: a bigger vocabulary's experiment; the shipped model is projected).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { cliArgs } from './lib/cli.ts';
import { loadConversations } from './lib/locomo.ts';
import { DEFAULT_MULTI_OPTIONS, type MultiOptions } from './lib/multi-model.ts';
import { ADDED_LANGUAGES } from './lib/multi-vocab.ts';
import { CACHE_DIR, TRAINED_ROOT, trainRoot } from './lib/train-root.ts';

function main(): void {
  const { values } = parseArgs({
    args: cliArgs(),
    options: {
      out: { type: 'string' },
      cache: { type: 'string' },
      epochs: { type: 'string' },
      lr: { type: 'string' },
      'glove-lr': { type: 'string' },
      temperature: { type: 'string' },
      english: { type: 'string' },
      components: { type: 'string' },
      seed: { type: 'string' },
      locomo: { type: 'string' },
      'min-items': { type: 'string' },
      'word-pairs': { type: 'string' },
      'word-rounds': { type: 'string' },
      'dictionary-words': { type: 'string' },
      'over-budget': { type: 'boolean', default: false },
    },
  });
  const modelDir = resolve(values.out ?? TRAINED_ROOT);
  const cacheDir = resolve(values.cache ?? CACHE_DIR);
  const d = DEFAULT_MULTI_OPTIONS;
  const num = (x: string | undefined, fallback: number) => (x === undefined ? fallback : Number(x));
  const options: MultiOptions = {
    ...d,
    vocabulary: {
      ...d.vocabulary,
      english: num(values.english, d.vocabulary.english),
      ...(values['dictionary-words'] !== undefined && {
        dictionaryWords: Object.fromEntries(
          ADDED_LANGUAGES.map((l) => [l, Number(values['dictionary-words'])]),
        ),
      }),
    },
    removeComponents: num(values.components, d.removeComponents),
    minItemsPerEpoch: num(values['min-items'], d.minItemsPerEpoch),
    wordPairs:
      values['word-pairs'] === undefined
        ? d.wordPairs
        : Number(values['word-pairs']) > 0
          ? {
              perLanguage: Number(values['word-pairs']),
              rounds: num(values['word-rounds'], d.wordPairs?.rounds ?? 1),
            }
          : null,
    training: {
      ...d.training,
      epochs: num(values.epochs, d.training.epochs),
      lr: num(values.lr, d.training.lr),
      gloveLrScale: num(values['glove-lr'], d.training.gloveLrScale),
      temperature: num(values.temperature, d.training.temperature),
      seed: num(values.seed, d.training.seed),
    },
  };
  trainRoot(
    modelDir,
    options,
    cacheDir,
    values.locomo ? loadConversations(resolve(values.locomo)) : undefined,
    values['over-budget'],
  );
}

main();
