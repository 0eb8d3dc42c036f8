import { expect } from 'vitest';
import { AnamnesisError, type ErrorCode } from '@anamnesis/errors';

/** Asserts that `fn` throws an AnamnesisError with `code`. */
export function expectCode(fn: () => unknown, code: ErrorCode): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(AnamnesisError);
  expect((caught as AnamnesisError).code).toBe(code);
}
