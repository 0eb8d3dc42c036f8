import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Encode } from '../src/utf8.ts';

const encoder = new TextEncoder();

describe('utf8Encode', () => {
  it('encodes ASCII, 2-, 3- and 4-byte characters like TextEncoder', () => {
    for (const s of ['', 'abc', 'é', 'ß€', '中文', '😀', 'a😀b€c']) {
      expect(utf8Encode(s)).toEqual(encoder.encode(s));
    }
    expect([...utf8Encode('😀')]).toEqual([0xf0, 0x9f, 0x98, 0x80]);
  });

  it('replaces lone surrogates with U+FFFD like TextEncoder', () => {
    for (const s of ['\ud800', 'a\udc00b', '\udbff\ud800', 'x\ud83d']) {
      expect(utf8Encode(s)).toEqual(encoder.encode(s));
    }
  });

  it('agrees with TextEncoder on arbitrary strings', () => {
    // Any UTF-16 code unit (lone surrogates included) or any astral code point (a surrogate pair).
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
      fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
    );
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 40 }).map((units) => units.join('')),
        (s) => Buffer.from(utf8Encode(s)).equals(encoder.encode(s)),
      ),
    );
  });

  it('rejects a non-string with INVALID_INPUT', () => {
    expect(() => utf8Encode(42 as unknown as string)).toThrowError(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});
