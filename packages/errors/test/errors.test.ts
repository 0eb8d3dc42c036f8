import { describe, expect, it } from 'vitest';
import {
  AnamnesisError,
  ERROR_CODES,
  assertInRange,
  isAnamnesisError,
  type ErrorCode,
} from '../src/index.ts';

function expectCode(fn: () => unknown, code: ErrorCode): void {
  expect(fn).toThrow(AnamnesisError);
  try {
    fn();
  } catch (e) {
    expect((e as AnamnesisError).code).toBe(code);
  }
}

describe('error catalogue', () => {
  it('carries a stable code, a message from the catalogue and details', () => {
    const e = new AnamnesisError('NOT_FOUND', 'id x', { details: { id: 'x' } });
    expect(e.code).toBe('NOT_FOUND');
    expect(e.name).toBe('AnamnesisError');
    expect(e.message).toBe(`${ERROR_CODES.NOT_FOUND}: id x`);
    expect(e.details).toEqual({ id: 'x' });
    expect(isAnamnesisError(e)).toBe(true);
    expect(isAnamnesisError(e, 'CLOSED')).toBe(false);
    expect(isAnamnesisError(new Error('x'))).toBe(false);
  });
  it('range assertions reject NaN and out-of-range values', () => {
    expectCode(() => assertInRange(NaN, 0, 1, 'x'), 'INVALID_INPUT');
    expectCode(() => assertInRange(2, 0, 1, 'x'), 'INVALID_INPUT');
    expectCode(() => assertInRange('1', 0, 1, 'x'), 'INVALID_INPUT');
    expect(() => assertInRange(0.5, 0, 1, 'x')).not.toThrow();
  });
});
