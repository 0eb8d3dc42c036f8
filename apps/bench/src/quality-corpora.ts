/**
 * The corpora of `bench:quality` beside LoCoMo: notes, web pages and other languages, each a
 * folder `apps/bench/corpora/<name>/` with `corpus.json` (memories and questions, each question
 * in the `dev` or the `held-out` split) and `PROVENANCE.md` (sources, licences, how it was built).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RememberInput } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import type { Conversation } from './locomo.ts';

/**
 * A question's split: `dev` may be looked at while tuning; `held-out` is scored only by
 * `bench:heldout` (aggregates only), once a decision is to be checked.
 */
export type Split = 'dev' | 'held-out';

/**
 * The commit that froze each corpus's current held-out split (issue 42: the questions written for
 * that issue), committed before any ranker ran on them.
 */
export const HELD_OUT_COMMITS: Readonly<Record<string, string>> = {
  notes: '6377f8cb0151677fa8038a65a3c860e158bef6e0',
  pages: '6377f8cb0151677fa8038a65a3c860e158bef6e0',
  'lang-de': 'b586aa792b033943d49ebaf8696a1d9769213d24',
  'lang-es': 'bb1b2fc94c62a33d97d079df10e0adb7e13fbf7a',
  'lang-ja': 'b56279b2b92e5e0b8cc255e3c0f96ac86ce74dc6',
  'lang-ru': '603c2870fcea54e24e26c5caca6aac5bbf9f52d8',
  'lang-zh': 'b56279b2b92e5e0b8cc255e3c0f96ac86ce74dc6',
  crosslang: '0d4fb7dc11ccf90cc5d75bf4511d219b94c2af9f',
};

/** The freeze commits of `corpora`, short, each with the corpora it froze: "6377f8c (notes, pages)". */
export function heldOutFreezes(corpora: readonly string[]): string {
  const by = new Map<string, string[]>();
  for (const c of corpora) {
    const commit = HELD_OUT_COMMITS[c];
    if (commit === undefined) throw new Error(`${c}: held-out questions but no freeze commit`);
    by.set(commit, [...(by.get(commit) ?? []), c]);
  }
  return [...by].map(([commit, names]) => `${commit.slice(0, 7)} (${names.join(', ')})`).join(', ');
}

/** The kinds of question, reported as categories 1–3. */
export const QUESTION_TYPES = ['known-item', 'topical', 'how-to'] as const;

/** One corpus file. */
interface CorpusFile {
  name: string;
  description: string;
  /** When the questions are asked, ms since the epoch. */
  askedAt: number;
  memories: RememberInput[];
  questions: {
    text: string;
    evidence: string[];
    split: Split;
    type: (typeof QUESTION_TYPES)[number];
  }[];
}

/** A corpus, one {@link Conversation} per split (the same memories, that split's questions). */
export interface QualityCorpus {
  name: string;
  description: string;
  splits: Partial<Record<Split, Conversation>>;
}

function invalid(file: string, why: string): never {
  throw new AnamnesisError('INVALID_INPUT', `${file}: ${why}`);
}

/** Loads and checks one corpus folder (unique ids, evidence that exists, known splits and types). */
export function loadCorpus(dir: string): QualityCorpus {
  const file = join(dir, 'corpus.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as CorpusFile;
  if (!Array.isArray(data.memories) || !Array.isArray(data.questions))
    invalid(file, 'needs memories and questions');
  const ids = new Set<string>();
  for (const m of data.memories) {
    if (typeof m.id !== 'string' || ids.has(m.id)) invalid(file, `bad or repeated id ${m.id}`);
    ids.add(m.id);
  }
  const splits: QualityCorpus['splits'] = {};
  for (const q of data.questions) {
    if (q.split !== 'dev' && q.split !== 'held-out') invalid(file, `bad split of "${q.text}"`);
    const category = QUESTION_TYPES.indexOf(q.type) + 1;
    if (category === 0) invalid(file, `bad type of "${q.text}"`);
    if (q.evidence.length === 0 || q.evidence.some((id) => !ids.has(id)))
      invalid(file, `evidence of "${q.text}" names no stored memory`);
    const conv = (splits[q.split] ??= {
      id: `${data.name}/${q.split}`,
      memories: data.memories,
      questions: [],
      askedAt: data.askedAt,
    });
    conv.questions.push({ text: q.text, evidence: q.evidence, category });
  }
  return { name: data.name, description: data.description, splits };
}

/** Every corpus under `root` (folders holding a `corpus.json`), by name. */
export function loadCorpora(root: string): QualityCorpus[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'corpus.json')))
    .map((d) => loadCorpus(join(root, d.name)))
    .sort((a, b) => a.name.localeCompare(b.name));
}
