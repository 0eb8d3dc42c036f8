import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isAnamnesisError } from '../src/errors.ts';
import { md5 } from '../src/md5.ts';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
const ascii = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'utf8'));
const reference = (bytes: Uint8Array): string => createHash('md5').update(bytes).digest('hex');

describe('md5', () => {
  it('matches the RFC 1321 / well-known vectors', () => {
    expect(hex(md5(ascii('')))).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(hex(md5(ascii('abc')))).toBe('900150983cd24fb0d6963f7d28e17f72');
    expect(hex(md5(ascii('The quick brown fox jumps over the lazy dog')))).toBe(
      '9e107d9d372bb6826bd81d3542a419d6',
    );
  });

  it('matches node:crypto on every length around the padding boundaries', () => {
    for (let n = 0; n <= 200; n++) {
      const bytes = new Uint8Array(n).map((_, i) => (i * 31 + n) & 0xff);
      expect(hex(md5(bytes))).toBe(reference(bytes));
    }
  });

  it('matches node:crypto on a 1 MB input and on a subarray view', () => {
    const big = new Uint8Array(1 << 20).map((_, i) => (i * 2654435761) >>> 24);
    expect(hex(md5(big))).toBe(reference(big));
    const view = big.subarray(7, 1000);
    expect(hex(md5(view))).toBe(reference(view));
  });

  it('rejects a non-Uint8Array with INVALID_INPUT', () => {
    expect(() => md5('abc' as unknown as Uint8Array)).toThrowError(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
    try {
      md5([1, 2] as unknown as Uint8Array);
    } catch (e) {
      expect(isAnamnesisError(e, 'INVALID_INPUT')).toBe(true);
    }
  });
});
