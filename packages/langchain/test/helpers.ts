import { createEngine, type Engine, type ErrorCode } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import { expect } from 'vitest';

/** A fresh in-memory engine on the zero-model TF-IDF backend (fast, no model to load). */
export function tfidfEngine(): Promise<Engine> {
  // a fixed clock: the default profile's recency prior makes scores depend on the time
  return createEngine({ storage: 'memory', embedder: 'tfidf', now: () => Date.UTC(2026, 0, 1) });
}

/** Asserts that `run` rejects (or throws) an AnamnesisError of `code`. */
export async function rejectsWith(run: () => unknown, code: ErrorCode): Promise<AnamnesisError> {
  let caught: unknown;
  try {
    await run();
  } catch (e) {
    caught = e;
  }
  expect(caught, `expected ${code}`).toBeInstanceOf(AnamnesisError);
  expect((caught as AnamnesisError).code).toBe(code);
  return caught as AnamnesisError;
}

/** Scores in non-increasing order (best first). */
export function expectBestFirst(scores: number[]): void {
  for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeLessThanOrEqual(scores[i - 1]!);
}
