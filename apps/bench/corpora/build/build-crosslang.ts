/**
 * Builds ../crosslang/corpus.json (issue 67): recall across languages on parallel texts. From
 * Debian's package descriptions and their DDTP translations, only packages of the multilingual
 * model's held-out `test` split (`packages/model-default/scripts/lib/training-data.ts`: split by
 * source package, never trained on), for each of German, French, Spanish, Russian, Japanese and
 * Chinese: a package's long description stored in that language and its English short
 * description asked (English → other), and a package's long description stored in English and
 * its short description in the other language asked (other → English), all in one store with
 * every language's texts side by side. Every third package of each language is held out (by its
 * order in the file, fixed here before any run).
 *
 *   pnpm --filter @anamnesis/model-default exec tsx ../../apps/bench/corpora/build/build-crosslang.ts
 *
 * Reads the descriptions from the model package's cache (`packages/model-default/.cache`, fetched
 * by `train:model` or `eval:multi`; see its README). Deterministic.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { LANGUAGES } from '../../../../packages/model-default/scripts/lib/ddtp.ts';
import { evaluationPackages } from '../../../../packages/model-default/scripts/lib/leakage.ts';
import {
  loadTrainingData,
  SPLIT_SALT,
} from '../../../../packages/model-default/scripts/lib/training-data.ts';

const here = dirname(fileURLToPath(import.meta.url));
const corporaDir = resolve(here, '..');
const cacheDir = resolve(here, '../../../../packages/model-default/.cache');
/** Packages per language and direction. */
const PER_DIRECTION = 24;
/** Longest stored description, in characters (a description is a few paragraphs). */
const MAX_CHARS = 1200;
const NAMES: Record<string, string> = {
  de: 'German',
  fr: 'French',
  es: 'Spanish',
  ru: 'Russian',
  ja: 'Japanese',
  zh_CN: 'Chinese',
};

const data = loadTrainingData(cacheDir, evaluationPackages(corporaDir), SPLIT_SALT, (m) =>
  console.error(`[crosslang] ${m}`),
);
const hash = (s: string) => createHash('sha256').update(`crosslang:${s}`).digest('hex');
const test = data.items
  .filter((i) => i.split === 'test' && i.texts.en)
  .sort((a, b) => (hash(a.md5) < hash(b.md5) ? -1 : 1));

const memories: {
  id: string;
  text: string;
  kind: string;
  session: string;
  meta: Record<string, string>;
  createdAt: number;
}[] = [];
const questions: { text: string; evidence: string[]; split: string; type: string }[] = [];
const used = new Set<string>();
const askedAt = Date.UTC(2026, 11, 1, 12);
const clip = (text: string) => (text.length <= MAX_CHARS ? text : text.slice(0, MAX_CHARS));

for (const lang of LANGUAGES.filter((l) => l !== 'en')) {
  const pool = test.filter((i) => i.texts[lang] && !used.has(i.md5));
  const toOther = pool.slice(0, PER_DIRECTION);
  const toEnglish = pool.slice(PER_DIRECTION, 2 * PER_DIRECTION);
  const add = (i: (typeof pool)[number], stored: string, asked: string, n: number, dir: string) => {
    used.add(i.md5);
    const id = `x-${dir}-${i.packages[0]}`;
    const text = clip(i.texts[stored as 'en']!.long);
    memories.push({
      id,
      text,
      kind: 'note',
      session: id,
      meta: { package: i.packages[0]!, language: stored },
      createdAt: askedAt - (memories.length + 1) * 3_600_000,
    });
    questions.push({
      text: i.texts[asked as 'en']!.short,
      evidence: [id],
      split: n % 3 === 2 ? 'held-out' : 'dev',
      type: 'known-item',
    });
  };
  toOther.forEach((i, n) => add(i, lang, 'en', n, `en-${lang}`));
  toEnglish.forEach((i, n) => add(i, 'en', lang, n, `${lang}-en`));
  console.error(
    `[crosslang] ${NAMES[lang]}: ${toOther.length} English → ${lang}, ${toEnglish.length} ${lang} → English`,
  );
}

const out = join(corporaDir, 'crosslang');
mkdirSync(out, { recursive: true });
writeFileSync(
  join(out, 'corpus.json'),
  `${JSON.stringify(
    {
      name: 'crosslang',
      description:
        "Debian package descriptions (held out of the model's training) in seven languages: a short description in one language asks for the package's long description in another",
      askedAt,
      memories,
      questions,
    },
    null,
    1,
  )}\n`,
);
console.error(`[crosslang] ${memories.length} memories, ${questions.length} questions`);
