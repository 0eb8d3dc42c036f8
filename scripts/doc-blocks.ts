/**
 * Every fenced code block of the docs (README.md, docs/**\/*.md but the generated API reference,
 * packages/*\/README.md) says, in an HTML comment on the line before it (blank lines between
 * allowed), either which test runs it or why it is not code to run:
 *
 *   <!-- block: run by e2e/consumers/consumers.spec.ts -->
 *   <!-- block: not run, an output sample -->
 *
 * `test/doc-blocks.test.ts` checks that every block has one and that each runner named exists and
 * reads the block's file and section; a test that runs a block reads it with `docBlock`, which
 * refuses a block not marked as run by that test. So a new block fails the unit
 * test until it is run or marked, and a test cannot run a block the docs say is not run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../', import.meta.url));

export type Marker = { runBy: string } | { notRun: string };

export interface DocBlock {
  /** The Markdown file, relative to the repo, with `/`. */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The `##` or `###` heading the block is under ('' before the first one). */
  heading: string;
  lang: string;
  code: string;
  /** What the comment before the block says; null when there is none. */
  marker: Marker | null;
}

const MARKER = /^<!-- block: (?:run by (\S+)|not run, (.+?)) -->$/;
const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([\w-]*)/;

/** The Markdown files whose blocks must be run or marked, relative to the repo. */
export function docFiles(root = REPO): string[] {
  const docs = readdirSync(join(root, 'docs'), { recursive: true })
    .map((f) => String(f).split('\\').join('/'))
    .filter((f) => f.endsWith('.md') && !f.startsWith('api/'))
    .map((f) => `docs/${f}`)
    .sort();
  const packages = readdirSync(join(root, 'packages'))
    .sort()
    .map((dir) => `packages/${dir}/README.md`)
    .filter((f) => {
      try {
        readFileSync(join(root, f));
        return true;
      } catch {
        return false;
      }
    });
  return ['README.md', ...docs, ...packages];
}

/** The fenced code blocks of a Markdown text, with their section and marker. */
export function parseBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const out: DocBlock[] = [];
  let heading = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const h = /^#{2,3} (.+)$/.exec(line);
    if (h) {
      heading = h[1]!.trim();
      continue;
    }
    const open = FENCE.exec(line);
    if (!open) continue;
    const fence = open[2]!;
    let end = i + 1;
    while (
      end < lines.length &&
      !new RegExp(`^ {0,3}${fence[0]}{${fence.length},}\\s*$`).test(lines[end]!)
    )
      end++;
    let before = i - 1;
    while (before >= 0 && lines[before]!.trim() === '') before--;
    const m = before >= 0 ? MARKER.exec(lines[before]!.trim()) : null;
    out.push({
      file,
      line: i + 1,
      heading,
      lang: open[3] ?? '',
      code: lines.slice(i + 1, end).join('\n') + (end > i + 1 ? '\n' : ''),
      marker: m ? (m[1] ? { runBy: m[1] } : { notRun: m[2]! }) : null,
    });
    i = end;
  }
  return out;
}

/** Every block of every doc file. */
export function allBlocks(root = REPO): DocBlock[] {
  return docFiles(root).flatMap((f) => parseBlocks(f, readFileSync(join(root, f), 'utf8')));
}

/** The blocks under `heading` (a `##` or `###` heading) in `file`, in order. */
export function docBlocks(file: string, heading: string): DocBlock[] {
  const found = parseBlocks(file, readFileSync(join(REPO, file), 'utf8')).filter(
    (b) => b.heading === heading,
  );
  if (found.length === 0) throw new Error(`${file}: no blocks under "${heading}"`);
  return found;
}

/**
 * The code of the one block of `lang` under `heading` in `file` whose first line contains
 * `marker` (or the only one), for the test `runner` (its path from the repo's root) to run: the
 * block must be marked `<!-- block: run by <runner> -->`.
 */
export function docBlock(
  file: string,
  heading: string,
  lang: string,
  runner: string,
  marker = '',
): string {
  const found = docBlocks(file, heading).filter(
    (b) => b.lang === lang && b.code.split('\n')[0]!.includes(marker),
  );
  if (found.length !== 1) throw new Error(`${file}, "${heading}": ${found.length} ${lang} blocks`);
  const b = found[0]!;
  if (!b.marker || !('runBy' in b.marker) || b.marker.runBy !== runner)
    throw new Error(
      `${file}:${b.line}: the block is not marked "<!-- block: run by ${runner} -->"`,
    );
  return b.code;
}
