/**
 * The four-stage compression pipeline of seed 002 §9, which shrinks a chunk for context injection
 * while keeping its structure.
 *
 * 1. Structural preservation: marks lines that are never removed — `def` / `async def` / `class`
 *    signatures, `return` / `raise` / `yield`, `assert`, control flow (`if`, `elif`, `else:`, `for`,
 *    `while`, `try:`, `except`, `finally:`, `with`, `switch`, `case`), lines inside `"""` / `'''`
 *    blocks (opening and closing lines included), and `# TODO|FIXME|HACK|NOTE|XXX` comments.
 * 2. Boilerplate collapse: more than 3 consecutive import lines become
 *    `# [N imports: a, b, ...]`; more than 2 consecutive `self.x = …` / `this.x = …` assignments
 *    become `# [N assignments: x, y, ...]`; more than 1 consecutive logging / print call becomes
 *    `# [N log statements]`; runs of blank lines become one. A summary keeps the indentation of the
 *    run's first line, lists at most 8 names (then `...`), and is itself preserved.
 * 3. TF-IDF importance filter (skipped when `strict`): each non-preserved, non-blank line scores
 *    the sum of the IDF of its {@link tokenize} tokens (repetitions count; unknown terms score 0);
 *    lines are removed lowest score first (earlier line first on ties) until the remaining tokens
 *    are <= `targetRatio` × the stage's input tokens, but never more than
 *    floor(`maxPruneRatio` × the number of scored lines).
 * 4. Density filter: blank runs collapse to one blank (inside docstrings too, as in the reference
 *    implementation); a non-blank, non-preserved line is removed
 *    when its trimmed text has a {@link sequenceRatio} above `densityThreshold` with any of the
 *    last `densityWindow` kept non-blank lines (trimmed). Lines over
 *    {@link MAX_DENSITY_LINE_LENGTH}, and all comparisons once {@link DENSITY_WORK_BUDGET} is
 *    spent, are compared by exact equality only.
 *
 * Tokens are counted by {@link countTokens}. Lines are split on `\n` (a `\r` stays with its line);
 * a single final newline is kept.
 */

import { AnamnesisError } from '@anamnesis/errors';
import { quickRatio, realQuickRatio, sequenceRatio } from './sequence-ratio.ts';
import { smoothedIdf, tokenize } from './tfidf.ts';

/** Default share of the stage-3 input tokens to keep. */
export const DEFAULT_TARGET_RATIO = 0.4;
/** Default cap on the share of scored lines that stage 3 may remove. */
export const DEFAULT_MAX_PRUNE_RATIO = 0.7;
/** Default similarity above which stage 4 drops a line. */
export const DEFAULT_DENSITY_THRESHOLD = 0.85;
/** Default number of previous kept lines stage 4 compares against. */
export const DEFAULT_DENSITY_WINDOW = 20;
/**
 * Lines longer than this (in UTF-16 code units) are compared in stage 4 by exact equality only: the
 * similarity is quadratic in the line length and minified or binary-like lines would stall it.
 */
export const MAX_DENSITY_LINE_LENGTH = 1000;
/**
 * Work budget of one stage-4 run, in |a|·|b| units of full similarity computations (those not
 * already settled by the cheap upper bounds). Once spent, the remaining comparisons use exact
 * equality. It bounds pathological input (long lines over a tiny alphabet) to a few hundred
 * milliseconds; ordinary chunks use a small fraction of it.
 */
export const DENSITY_WORK_BUDGET = 20_000_000;

/** Most names listed in an import or assignment summary. */
const SUMMARY_NAMES = 8;

/** Options of {@link compress}. */
export interface CompressOptions {
  /**
   * Stage 3 stops once the remaining tokens are <= this share of its input tokens, in [0, 1].
   * Default 0.4 (keep about 40 %). 1 disables stage 3.
   */
  readonly targetRatio?: number;
  /** Largest share of scored (removable) lines stage 3 may remove, in [0, 1]. Default 0.7. */
  readonly maxPruneRatio?: number;
  /** Preserve `def` / `async def` / `class` signature lines. Default true. */
  readonly preserveSignatures?: boolean;
  /** Preserve lines inside `"""` / `'''` blocks. Default true. */
  readonly preserveDocstrings?: boolean;
  /** Collapse runs of more than 3 import lines. Default true. */
  readonly collapseImports?: boolean;
  /** Collapse assignment runs, log runs and blank runs. Default true. */
  readonly collapseBoilerplate?: boolean;
  /** Skip stage 3 entirely (for named symbol chunks, whose code is dense). Default false. */
  readonly strict?: boolean;
  /**
   * IDF table (term → idf) for stage 3, e.g. `TfidfIndex.idfTable()`. When absent, the IDF is
   * computed locally, treating each non-blank line of the text as a document.
   */
  readonly idf?: ReadonlyMap<string, number>;
  /**
   * Query-aware IDF override for stage 3: when given and non-empty it replaces `idf`, so terms rare
   * in the current query context weigh more.
   */
  readonly contextIdf?: ReadonlyMap<string, number>;
  /** Stage 4 removes a line whose similarity with a recent line is above this, in [0, 1]. Default 0.85. */
  readonly densityThreshold?: number;
  /** Number of previous kept non-blank lines stage 4 compares against, an integer >= 0. Default 20. */
  readonly densityWindow?: number;
}

/** Result of {@link compress}. */
export interface CompressResult {
  /** The compressed text. */
  readonly text: string;
  /** {@link countTokens} of the input. */
  readonly originalTokens: number;
  /** {@link countTokens} of the output. */
  readonly compressedTokens: number;
  /** compressedTokens / originalTokens (1 when the input has no tokens). */
  readonly ratio: number;
  /** Lines removed by each stage (stage 2 counts the lines a summary replaced, minus the summary). */
  readonly removedLines: {
    readonly boilerplate: number;
    readonly importance: number;
    readonly density: number;
  };
}

/** Number of Unicode code points of `text` (what Python's `len` counts). */
function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * Estimated LLM tokens of `text`: ceil(code points / 4), the usual "about four characters per
 * token" rule for English and code. 0 for the empty string.
 * @throws AnamnesisError `INVALID_INPUT` when `text` is not a string.
 */
export function countTokens(text: string): number {
  if (typeof text !== 'string') {
    throw new AnamnesisError('INVALID_INPUT', `text must be a string, got ${typeof text}`);
  }
  return Math.ceil(codePoints(text) / 4);
}

// Stage 1 patterns (seed 002 §9). The control-flow pattern puts `\b` after keywords only, so that
// `else:` / `try:` / `finally:` at the end of a line match (a `\b` after the colon never would).
const SIGNATURE_RE = /^\s*(?:async\s+)?def\s+\w+|^\s*class\s+\w+/;
const RETURN_RE = /^\s*(?:return|raise|yield)\b/;
const ASSERT_RE = /^\s*assert\b/;
const CONTROL_RE =
  /^\s*(?:if\b|elif\b|else\s*:|for\b|while\b|try\s*:|except\b|finally\s*:|with\b|switch\b|case\b)/;
const ANNOTATION_RE = /#\s*(?:TODO|FIXME|HACK|NOTE|XXX)\b/;
const TRIPLE_QUOTE_RE = /"""|'''/g;

// Stage 2 patterns.
const IMPORT_RE = /^\s*(?:import|from)\s+/;
const ASSIGNMENT_RE = /^\s*(?:self|this)\.(\w+)\s*=(?!=)\s*\S/;
const LOG_RE = /^\s*(?:logger\.|logging\.|log\.|print\s*\(|console\.|self\._?log)/i;
const BLANK_RE = /^\s*$/;

function importName(line: string): string {
  const m =
    /^\s*from\s+(\S+)\s+import\b/.exec(line) ?? // Python: from x import y
    /\bfrom\s+['"]([^'"]+)['"]/.exec(line) ?? // ES module: import … from 'x'
    /^\s*import\s+['"]([^'"]+)['"]/.exec(line) ?? // ES module: import 'x'
    /^\s*import\s+([\w.]+)/.exec(line) ?? // Python: import x.y
    /^\s*(?:import|from)\s+(\S+)/.exec(line);
  return m?.[1] ?? '?';
}

interface Line {
  readonly text: string;
  readonly preserved: boolean;
}

function indentOf(text: string): string {
  return /^\s*/.exec(text)?.[0] ?? '';
}

function summary(first: string, body: string): Line {
  return { text: `${indentOf(first)}# [${body}]`, preserved: true };
}

function nameList(names: readonly string[]): string {
  const shown = names.slice(0, SUMMARY_NAMES).join(', ');
  return names.length > SUMMARY_NAMES ? `${shown}, ...` : shown;
}

function markPreserved(
  lines: readonly string[],
  preserveSignatures: boolean,
  preserveDocstrings: boolean,
): Line[] {
  const out: Line[] = [];
  let quote: string | null = null; // the delimiter of the open triple-quoted block
  for (const text of lines) {
    let inBlock = quote !== null;
    for (const m of text.matchAll(TRIPLE_QUOTE_RE)) {
      if (quote === null) {
        quote = m[0];
        inBlock = true;
      } else if (m[0] === quote) {
        quote = null;
      }
    }
    const preserved =
      (preserveDocstrings && inBlock) ||
      (preserveSignatures && SIGNATURE_RE.test(text)) ||
      RETURN_RE.test(text) ||
      ASSERT_RE.test(text) ||
      CONTROL_RE.test(text) ||
      ANNOTATION_RE.test(text);
    out.push({ text, preserved });
  }
  return out;
}

function collapseBoilerplate(
  lines: readonly Line[],
  imports: boolean,
  boilerplate: boolean,
): Line[] {
  const out: Line[] = [];
  const runOf = (start: number, re: RegExp): number => {
    let end = start;
    while (end < lines.length && !lines[end]!.preserved && re.test(lines[end]!.text)) end++;
    return end;
  };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (!line.preserved) {
      if (imports && IMPORT_RE.test(line.text)) {
        const end = runOf(i, IMPORT_RE);
        if (end - i > 3) {
          const names = lines.slice(i, end).map((l) => importName(l.text));
          out.push(summary(line.text, `${end - i} imports: ${nameList(names)}`));
        } else {
          out.push(...lines.slice(i, end));
        }
        i = end;
        continue;
      }
      if (boilerplate && ASSIGNMENT_RE.test(line.text)) {
        const end = runOf(i, ASSIGNMENT_RE);
        if (end - i > 2) {
          const names = lines.slice(i, end).map((l) => ASSIGNMENT_RE.exec(l.text)?.[1] ?? '?');
          out.push(summary(line.text, `${end - i} assignments: ${nameList(names)}`));
        } else {
          out.push(...lines.slice(i, end));
        }
        i = end;
        continue;
      }
      if (boilerplate && LOG_RE.test(line.text)) {
        const end = runOf(i, LOG_RE);
        if (end - i > 1) {
          out.push(summary(line.text, `${end - i} log statements`));
        } else {
          out.push(line);
        }
        i = end;
        continue;
      }
      if (boilerplate && BLANK_RE.test(line.text)) {
        out.push(line);
        i = runOf(i, BLANK_RE);
        continue;
      }
    }
    out.push(line);
    i++;
  }
  return out;
}

function localIdf(lines: readonly Line[]): Map<string, number> {
  const df = new Map<string, number>();
  let docs = 0;
  for (const line of lines) {
    if (BLANK_RE.test(line.text)) continue;
    docs++;
    for (const term of new Set(tokenize(line.text))) df.set(term, (df.get(term) ?? 0) + 1);
  }
  const n = Math.max(1, docs);
  const idf = new Map<string, number>();
  for (const [term, d] of df) idf.set(term, smoothedIdf(n, d));
  return idf;
}

function importanceFilter(
  lines: readonly Line[],
  idf: ReadonlyMap<string, number>,
  targetRatio: number,
  maxPruneRatio: number,
): Line[] {
  // Token accounting over the joined text: code points of all lines plus the newlines between.
  const lengths = lines.map((l) => codePoints(l.text));
  let chars = lengths.reduce((s, n) => s + n, 0) + Math.max(0, lines.length - 1);
  let kept = lines.length;
  const total = Math.ceil(chars / 4);
  const target = total * targetRatio;
  if (total <= target) return [...lines];

  const scored: { index: number; score: number }[] = [];
  lines.forEach((line, index) => {
    if (line.preserved || BLANK_RE.test(line.text)) return;
    let score = 0;
    for (const term of tokenize(line.text)) score += idf.get(term) ?? 0;
    scored.push({ index, score });
  });
  scored.sort((a, b) => a.score - b.score || a.index - b.index);
  const maxRemovals = Math.floor(scored.length * maxPruneRatio);

  const removed = new Set<number>();
  for (const { index } of scored) {
    if (removed.size >= maxRemovals) break;
    removed.add(index);
    kept--;
    chars -= lengths[index]! + (kept > 0 ? 1 : 0);
    if (Math.ceil(chars / 4) <= target) break;
  }
  return lines.filter((_, index) => !removed.has(index));
}

function densityFilter(lines: readonly Line[], threshold: number, window: number): Line[] {
  const out: Line[] = [];
  const recent: string[] = []; // trimmed kept non-blank lines, oldest first
  let previousBlank = false;
  let budget = DENSITY_WORK_BUDGET;
  for (const line of lines) {
    const trimmed = line.text.trim();
    if (trimmed === '') {
      if (!previousBlank) out.push(line);
      previousBlank = true;
      continue;
    }
    previousBlank = false;
    if (!line.preserved) {
      const duplicate = recent.some((prev) => {
        if (trimmed === prev) return threshold < 1; // identical: ratio 1
        if (trimmed.length > MAX_DENSITY_LINE_LENGTH || prev.length > MAX_DENSITY_LINE_LENGTH) {
          return false;
        }
        if (realQuickRatio(trimmed, prev) <= threshold) return false;
        if (quickRatio(trimmed, prev) <= threshold) return false;
        if (budget <= 0) return false;
        budget -= trimmed.length * prev.length;
        return sequenceRatio(trimmed, prev) > threshold;
      });
      if (duplicate) continue;
    }
    out.push(line);
    if (window > 0) {
      recent.push(trimmed);
      if (recent.length > window) recent.shift();
    }
  }
  return out;
}

function ratioOption(value: unknown, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be within [0, 1], got ${String(value)}`,
    );
  }
  return value;
}

function boolOption(value: unknown, fallback: boolean, what: string): boolean {
  if (value === undefined) return fallback;
  if (typeof value !== 'boolean') {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be a boolean, got ${String(value)}`);
  }
  return value;
}

function idfOption(value: unknown, what: string): ReadonlyMap<string, number> | undefined {
  if (value === undefined) return undefined;
  if (!(value instanceof Map)) {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be a Map of term to idf`);
  }
  for (const v of value.values()) {
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      throw new AnamnesisError('INVALID_INPUT', `${what} holds a non-finite idf`);
    }
  }
  return value as ReadonlyMap<string, number>;
}

/**
 * Runs the four-stage pipeline on `text` (see the module docs). Text that is empty or all
 * whitespace is returned unchanged.
 * @throws AnamnesisError `INVALID_INPUT` when `text` is not a string or an option is out of range.
 */
export function compress(text: string, options: CompressOptions = {}): CompressResult {
  if (typeof text !== 'string') {
    throw new AnamnesisError('INVALID_INPUT', `text must be a string, got ${typeof text}`);
  }
  if (typeof options !== 'object' || options === null) {
    throw new AnamnesisError('INVALID_INPUT', 'options must be an object');
  }
  const targetRatio = ratioOption(options.targetRatio, DEFAULT_TARGET_RATIO, 'targetRatio');
  const maxPruneRatio = ratioOption(
    options.maxPruneRatio,
    DEFAULT_MAX_PRUNE_RATIO,
    'maxPruneRatio',
  );
  const densityThreshold = ratioOption(
    options.densityThreshold,
    DEFAULT_DENSITY_THRESHOLD,
    'densityThreshold',
  );
  const densityWindow = options.densityWindow ?? DEFAULT_DENSITY_WINDOW;
  if (!Number.isSafeInteger(densityWindow) || densityWindow < 0) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `densityWindow must be a non-negative integer, got ${String(densityWindow)}`,
    );
  }
  const preserveSignatures = boolOption(options.preserveSignatures, true, 'preserveSignatures');
  const preserveDocstrings = boolOption(options.preserveDocstrings, true, 'preserveDocstrings');
  const collapseImports = boolOption(options.collapseImports, true, 'collapseImports');
  const collapseBoiler = boolOption(options.collapseBoilerplate, true, 'collapseBoilerplate');
  const strict = boolOption(options.strict, false, 'strict');
  const idf = idfOption(options.idf, 'idf');
  const contextIdf = idfOption(options.contextIdf, 'contextIdf');

  const originalTokens = countTokens(text);
  if (text.trim() === '') {
    return {
      text,
      originalTokens,
      compressedTokens: originalTokens,
      ratio: 1,
      removedLines: { boilerplate: 0, importance: 0, density: 0 },
    };
  }

  const finalNewline = text.endsWith('\n');
  const raw = (finalNewline ? text.slice(0, -1) : text).split('\n');

  let lines = markPreserved(raw, preserveSignatures, preserveDocstrings);
  const afterStage1 = lines.length;
  lines = collapseBoilerplate(lines, collapseImports, collapseBoiler);
  const afterStage2 = lines.length;
  if (!strict && targetRatio < 1) {
    const table = contextIdf !== undefined && contextIdf.size > 0 ? contextIdf : idf;
    lines = importanceFilter(lines, table ?? localIdf(lines), targetRatio, maxPruneRatio);
  }
  const afterStage3 = lines.length;
  lines = densityFilter(lines, densityThreshold, densityWindow);

  const out = lines.map((l) => l.text).join('\n') + (finalNewline ? '\n' : '');
  const compressedTokens = countTokens(out);
  return {
    text: out,
    originalTokens,
    compressedTokens,
    ratio: originalTokens === 0 ? 1 : compressedTokens / originalTokens,
    removedLines: {
      boilerplate: afterStage1 - afterStage2,
      importance: afterStage2 - afterStage3,
      density: afterStage3 - lines.length,
    },
  };
}
