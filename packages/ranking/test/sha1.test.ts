import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha1 } from '../src/sha1.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const ascii = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const reference = (bytes: Uint8Array): string => createHash('sha1').update(bytes).digest('hex');

describe('sha1', () => {
  it('matches the FIPS 180 / well-known vectors', () => {
    expect(hex(sha1(ascii('')))).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(hex(sha1(ascii('abc')))).toBe('a9993e364706816aba3e25717850c26c9cd0d89d');
    expect(hex(sha1(ascii('The quick brown fox jumps over the lazy dog')))).toBe(
      '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
    );
  });

  it('matches node:crypto on every length around the padding boundaries', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 17 + n) & 0xff);
      expect(hex(sha1(bytes))).toBe(reference(bytes));
    }
  });

  it('matches node:crypto on a 1 MB input', () => {
    const big = new Uint8Array(1 << 20).map((_, i) => (i * 2246822519) >>> 24);
    expect(hex(sha1(big))).toBe(reference(big));
  });

  it('rejects a non-Uint8Array with INVALID_INPUT', () => {
    expect(() => sha1(null as unknown as Uint8Array)).toThrowError(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});
