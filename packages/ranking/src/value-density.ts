import { AnamnesisError, assertFinite, assertInRange } from '@anamnesis/errors';

/** Inputs of {@link valueDensity}. */
export interface DensityInput {
  /** The fused relevance score (seed 002 uses the RRF score). */
  score: number;
  /** Token count of the memory (see `countTokens`). */
  tokens: number;
  /** Fraction of boilerplate in [0, 1]. Default 0. */
  boilerplateRatio?: number;
  /** A named symbol or structured code chunk: relevance ×2. Default false. */
  structured?: boolean;
}

/**
 * Seed 002's cost-model value density:
 * `relevance = score · (1 − 0.5·boilerplate) · (structured ? 2 : 1)`,
 * `density = relevance / (1 + log1p(max(1, tokens)))`.
 */
export function valueDensity(input: DensityInput): number {
  assertFinite(input?.score, 'score');
  assertInRange(input.tokens, 0, Number.MAX_SAFE_INTEGER, 'tokens');
  const boilerplate = input.boilerplateRatio ?? 0;
  assertInRange(boilerplate, 0, 1, 'boilerplateRatio');
  let relevance = input.score * (1 - 0.5 * boilerplate);
  if (input.structured) relevance *= 2;
  return relevance / (1 + Math.log1p(Math.max(1, input.tokens)));
}

const BOILERPLATE_LINE =
  /^\s*(?:$|[{}()[\];,]+$|import\b|from\s+\S+\s+import\b|(?:const|let|var)\s+\w+\s*=\s*require\(|#include\b|using\s|package\s|\/\/|#(?!\s*(?:TODO|FIXME|HACK|NOTE|XXX)\b)|(?:console\.\w+|print|logger\.\w+|logging\.\w+)\s*\()/;

/**
 * Path-based minimum boilerplate ratio of seed 002: `.html`, `.css`, `.md`, `.txt` → 0.85;
 * a `tests/` or `test/` prefix → 0.50; otherwise 0.
 */
export function pathBoilerplateFloor(path: string): number {
  if (typeof path !== 'string') throw new AnamnesisError('INVALID_INPUT', 'path must be a string');
  if (/\.(?:html|css|md|txt)$/i.test(path)) return 0.85;
  if (/^(?:\.\/)?tests?\//.test(path)) return 0.5;
  return 0;
}

/**
 * Seed 002's boilerplate ratio: the fraction of lines that are boilerplate (blank, bracket-only,
 * imports, comments without an annotation, logging) plus `0.3 · repetition` (the fraction of
 * non-blank lines that repeat an earlier line), capped at 1, and at least the path's floor.
 */
export function boilerplateRatio(text: string, path?: string): number {
  if (typeof text !== 'string') throw new AnamnesisError('INVALID_INPUT', 'text must be a string');
  const lines = text.split('\n');
  const boiler = lines.filter((l) => BOILERPLATE_LINE.test(l)).length;
  const nonBlank = lines.map((l) => l.trim()).filter((l) => l.length > 0);
  const repetition = nonBlank.length === 0 ? 0 : 1 - new Set(nonBlank).size / nonBlank.length;
  const ratio = Math.min(1, boiler / lines.length + repetition * 0.3);
  return Math.max(ratio, path === undefined ? 0 : pathBoilerplateFloor(path));
}
