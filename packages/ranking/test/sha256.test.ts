import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256, sha256Hex } from '../src/sha256.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const reference = (bytes: Uint8Array | string): string =>
  createHash('sha256').update(bytes).digest('hex');

describe('sha256', () => {
  it('matches the FIPS 180 / well-known vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(sha256Hex('The quick brown fox jumps over the lazy dog')).toBe(
      'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
    );
  });

  it('hashes strings as UTF-8', () => {
    for (const s of ['héllo wörld', '😀 emoji', '中文']) expect(sha256Hex(s)).toBe(reference(s));
  });

  it('matches node:crypto on every length around the padding boundaries', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 13 + n) & 0xff);
      expect(hex(sha256(bytes))).toBe(reference(bytes));
    }
  });

  it('matches node:crypto on a 1 MB input', () => {
    const big = new Uint8Array(1 << 20).map((_, i) => (i * 3266489917) >>> 24);
    expect(sha256Hex(big)).toBe(reference(big));
  });

  it('rejects a non-Uint8Array with INVALID_INPUT', () => {
    expect(() => sha256({} as unknown as Uint8Array)).toThrowError(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});
