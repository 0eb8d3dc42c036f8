/**
 * The descriptions the multilingual model trains and is evaluated on: one item per English
 * description (packages that share a `Description-md5` share one item), with its translations,
 * split by source package into `train`, `validation` and `test` after the evaluation's packages
 * are excluded (see `leakage.ts`).
 */
import { createHash } from 'node:crypto';

import {
  fetchDdtpFile,
  LANGUAGES,
  parseSources,
  parseTranslation,
  translationFile,
  type Description,
  type Language,
} from './ddtp.ts';
import {
  assertNoPassageInTraining,
  flatten,
  textsWithPassages,
  type EvaluationPackages,
} from './leakage.ts';

/** A description in one language. */
export interface Text {
  short: string;
  long: string;
}

export type Split = 'train' | 'validation' | 'test';

/** Salt of the split by source package (changing it changes which packages are held out). */
export const SPLIT_SALT = 'anamnesis-ddtp-split-1';

/** One English description and its translations. */
export interface Item {
  md5: string;
  /** The binary packages that carry it, sorted. */
  packages: string[];
  /** The source package of the first of them: the unit of the split. */
  source: string;
  split: Split;
  texts: Partial<Record<Language, Text>>;
}

/**
 * The split of a source package: the first four bytes of sha256(`salt:source`) modulo 20; 0 and 1
 * are `test` (10 %), 2 is `validation` (5 %), the rest `train`.
 */
export function splitOf(source: string, salt: string): Split {
  const h = createHash('sha256').update(`${salt}:${source}`).digest().readUInt32BE(0) % 20;
  return h < 2 ? 'test' : h === 2 ? 'validation' : 'train';
}

export interface TrainingData {
  items: Item[];
  /** What was excluded, for the manifest. */
  excluded: {
    /** The evaluation's packages that the archive has. */
    packages: string[];
    /** Names the evaluation implies that the archive has no package of (`node-comlink`…). */
    absent: string[];
    sources: string[];
    items: number;
    /** Packages whose description quotes a passage of the evaluation, with the passage. */
    quoting: Record<string, string>;
    /** Training items dropped because a test or validation item has the same long text. */
    duplicates_of_held_out: number;
  };
  /** Descriptions per language in each split. */
  counts: Record<Split, Record<string, number>>;
}

/**
 * Reads the descriptions, excludes the evaluation's packages, splits by source package, and checks
 * that nothing of the evaluation is left in the training split (it throws if anything is).
 */
export function loadTrainingData(
  cacheDir: string,
  evaluation: EvaluationPackages,
  salt: string,
  log: (m: string) => void,
): TrainingData {
  const sources = parseSources(
    fetchDdtpFile(cacheDir, 'main/binary-amd64/Packages', log).toString('utf8'),
  );
  const byLang = new Map<Language, Description[]>();
  for (const lang of LANGUAGES) {
    byLang.set(
      lang,
      parseTranslation(fetchDdtpFile(cacheDir, translationFile(lang), log).toString('utf8'), lang),
    );
  }
  const sourceOf = (pkg: string) => sources.get(pkg) ?? pkg;

  // Excluded: the named packages, every package of their sources, every description they carry.
  const excludedPackages = new Set(evaluation.packages.keys());
  const excludedSources = new Set([...excludedPackages].map(sourceOf));
  const excludedMd5 = new Set<string>();
  for (const d of byLang.get('en')!) {
    if (excludedPackages.has(d.package) || excludedSources.has(sourceOf(d.package)))
      excludedMd5.add(d.md5);
  }
  const isExcluded = (pkg: string, md5: string) =>
    excludedPackages.has(pkg) || excludedSources.has(sourceOf(pkg)) || excludedMd5.has(md5);

  const items = new Map<string, Item>();
  let excludedItems = 0;
  const seenExcluded = new Set<string>();
  for (const d of byLang.get('en')!) {
    if (isExcluded(d.package, d.md5)) {
      if (!seenExcluded.has(d.md5)) excludedItems++;
      seenExcluded.add(d.md5);
      items.delete(d.md5);
      continue;
    }
    const item = items.get(d.md5);
    if (item) item.packages.push(d.package);
    else
      items.set(d.md5, {
        md5: d.md5,
        packages: [d.package],
        source: '',
        split: 'train',
        texts: { en: { short: d.short, long: d.long } },
      });
  }
  for (const lang of LANGUAGES) {
    if (lang === 'en') continue;
    for (const d of byLang.get(lang)!) {
      const item = items.get(d.md5);
      if (!item || isExcluded(d.package, d.md5)) continue;
      item.texts[lang] ??= { short: d.short, long: d.long };
    }
  }
  // Descriptions that quote a passage of the evaluation under another package's name (a Python
  // binding that repeats the library's description): out, in every language.
  const sorted = [...items.values()].sort((a, b) => (a.md5 < b.md5 ? -1 : a.md5 > b.md5 ? 1 : 0));
  const texts = sorted.map((item) =>
    Object.values(item.texts)
      .map((t) => `${t.short}\n${t.long}`)
      .join('\n'),
  );
  const quoting: Record<string, string> = {};
  for (const [index, passage] of textsWithPassages(evaluation.passages, texts)) {
    quoting[sorted[index]!.packages.join(' ')] = `${passage.corpus}/${passage.id}`;
  }
  const quotes = new Set(
    [...textsWithPassages(evaluation.passages, texts).keys()].map((i) => sorted[i]!.md5),
  );
  const list = sorted.filter((item) => !quotes.has(item.md5));
  for (const item of list) {
    item.packages.sort();
    item.source = sourceOf(item.packages[0]!);
    item.split = splitOf(item.source, salt);
  }

  // A training item with the same long text as a held-out one (another package of the same
  // family, under another source) would leak it: drop it.
  const heldOutLongs = new Set<string>();
  for (const item of list)
    if (item.split !== 'train')
      for (const t of Object.values(item.texts)) if (t.long) heldOutLongs.add(flatten(t.long));
  let duplicates = 0;
  const kept = list.filter((item) => {
    if (item.split !== 'train') return true;
    const dup = Object.values(item.texts).some((t) => t.long && heldOutLongs.has(flatten(t.long)));
    if (dup) duplicates++;
    return !dup;
  });

  // The checks: no excluded package, source or description, and no passage of the evaluation.
  for (const item of kept) {
    for (const pkg of item.packages) {
      if (isExcluded(pkg, item.md5))
        throw new Error(
          `leakage: ${pkg} (${evaluation.packages.get(pkg) ?? 'excluded'}) slipped in`,
        );
    }
  }
  assertNoPassageInTraining(
    evaluation.passages,
    kept
      .filter((i) => i.split === 'train')
      .flatMap((i) => Object.values(i.texts).flatMap((t) => [t.short, t.long])),
  );

  const counts: TrainingData['counts'] = { train: {}, validation: {}, test: {} };
  for (const item of kept)
    for (const lang of Object.keys(item.texts))
      counts[item.split][lang] = (counts[item.split][lang] ?? 0) + 1;
  return {
    items: kept,
    excluded: {
      packages: [...excludedPackages].filter((p) => sources.has(p)).sort(),
      absent: [...excludedPackages].filter((p) => !sources.has(p)).sort(),
      sources: [...excludedSources].sort(),
      items: excludedItems,
      quoting,
      duplicates_of_held_out: duplicates,
    },
    counts,
  };
}
