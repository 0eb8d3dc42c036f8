// Shared helpers for the corpus builders. No dependencies.
import { writeFileSync } from 'node:fs';

/** 2026-11-01T12:00:00Z: when the questions are asked. */
export const ASKED_AT = Date.UTC(2026, 10, 1, 12, 0, 0);

/**
 * Copied verbatim in logic from apps/extension/src/chunk.ts (`chunkText`, `splitLong`, `cutText`,
 * CHUNK_CHARS = 800), so that passages are cut exactly as the browser extension cuts a page.
 * (Importing the .ts file needs the workspace packages built; a copy keeps the builders standalone.)
 */
export const CHUNK_CHARS = 800;

export function chunkText(text, max = CHUNK_CHARS) {
  const paragraphs = text
    .replace(/\r\n?/g, '\n')
    .split(/\n+/)
    .map((p) => p.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .filter((p) => p.length > 0);
  const pieces = paragraphs.flatMap((p) => splitLong(p, max));
  const chunks = [];
  let current = '';
  for (const piece of pieces) {
    if (current && current.length + 1 + piece.length > max) {
      chunks.push(current);
      current = piece;
    } else current = current ? `${current}\n${piece}` : piece;
  }
  if (current) chunks.push(current);
  return chunks;
}

function splitLong(paragraph, max) {
  if (paragraph.length <= max) return [paragraph];
  const out = [];
  let rest = paragraph;
  while (rest.length > max) {
    const window = rest.slice(0, max + 1);
    let cut = Math.max(
      window.lastIndexOf('. '),
      window.lastIndexOf('! '),
      window.lastIndexOf('? '),
    );
    if (cut > max / 3) cut += 1;
    else cut = window.lastIndexOf(' ');
    if (cut <= max / 3) cut = cutText(rest, max).length;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}

export function cutText(s, max) {
  if (s.length <= max) return s;
  const last = s.charCodeAt(max - 1);
  return s.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * A deterministic creation time for memory `i` of `n`: spread over the ~200 days before
 * `ASKED_AT`, in order, with a fixed pseudo-random hour offset (no Math.random: rebuilds are
 * byte-identical).
 */
export function createdAt(i, n, days = 200) {
  const span = days * 86_400_000;
  const step = span / Math.max(n, 1);
  const jitter = ((i * 2654435761) % 1000) / 1000; // fixed hash in [0, 1)
  return Math.round(ASKED_AT - span + i * step + jitter * step * 0.8);
}

/**
 * The held-out split (issue 42). The questions written before issue 42 were all looked at while
 * deciding (their old every-third held-out lines included), so they are all `dev` now. The
 * held-out split is fresh: among the questions added for issue 42, in the order the builder lists
 * them, question _j_ (0-based) is `held-out` when `j % 3 === 1`, else `dev`. It was fixed, and
 * committed with the corpora, before any ranker ran on them (see each PROVENANCE.md).
 */
export function freshSplit(j) {
  return j % 3 === 1 ? 'held-out' : 'dev';
}

/** Marks `questions` (those added for issue 42, in order) with the fresh split. */
export function fresh(questions) {
  return questions.map((q, j) => ({ ...q, split: freshSplit(j) }));
}

/** Writes `corpus.json` for `name`, checking that every evidence id exists. */
export function writeCorpus(name, description, memories, questions) {
  const ids = new Set(memories.map((m) => m.id));
  if (ids.size !== memories.length) throw new Error(`${name}: duplicate memory ids`);
  for (const q of questions) {
    for (const e of q.evidence)
      if (!ids.has(e)) throw new Error(`${name}: unknown evidence ${e} in "${q.text}"`);
  }
  const corpus = {
    name,
    description,
    askedAt: ASKED_AT,
    memories,
    // a question not marked by `fresh` is an old one: `dev`
    questions: questions.map((q) => ({
      text: q.text,
      evidence: q.evidence,
      split: q.split ?? 'dev',
      type: q.type,
    })),
  };
  const file = new URL(`../${name}/corpus.json`, import.meta.url);
  writeFileSync(file, JSON.stringify(corpus, null, 1) + '\n');
  const held = corpus.questions.filter((q) => q.split === 'held-out').length;
  console.log(
    `${name}: ${memories.length} memories, ${questions.length} questions (${questions.length - held} dev, ${held} held-out)`,
  );
}

/**
 * One package's `apt-cache show` stanza as a note's source: name, version, section, size, and
 * its English description (the `Description-en:` line is the title, the indented lines after it
 * the body; a line ` .` is a blank line). The long description is in the Translation-en index:
 * needs `apt-get update -o Acquire::Languages=en` where the image turned languages off.
 */
export function readStanza(stanza) {
  const lines = stanza.split('\n');
  const field = (name) =>
    (lines.find((l) => l.startsWith(`${name}: `)) ?? '').slice(name.length + 2);
  let at = lines.findIndex((l) => l.startsWith('Description-en: '));
  if (at < 0) at = lines.findIndex((l) => l.startsWith('Description: '));
  const title = lines[at].replace(/^Description(-en)?: /, '').trim();
  const body = [];
  for (const l of lines.slice(at + 1)) {
    if (!l.startsWith(' ')) break;
    body.push(l.trim() === '.' ? '' : l.slice(1));
  }
  return {
    pkg: field('Package'),
    version: field('Version'),
    section: field('Section'),
    size: Number(field('Size')),
    title,
    body: body.join('\n').trim(),
  };
}
