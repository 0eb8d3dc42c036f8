/**
 * UTF-8 encoding without `TextEncoder`, so the ranking core needs no DOM or Node type declarations.
 * The output is byte-for-byte what `new TextEncoder().encode(text)` produces: well-formed UTF-8,
 * with every lone surrogate replaced by U+FFFD (EF BF BD). Python's `str.encode('utf-8')` raises on
 * lone surrogates instead; for every well-formed string the two agree.
 */

import { AnamnesisError } from './errors.ts';

/** Encodes `text` as UTF-8. Throws `INVALID_INPUT` when `text` is not a string. */
export function utf8Encode(text: string): Uint8Array {
  if (typeof text !== 'string') {
    throw new AnamnesisError('INVALID_INPUT', `expected a string, got ${typeof text}`);
  }
  const n = text.length;
  // Fast path: pure ASCII.
  let ascii = true;
  for (let i = 0; i < n; i++) {
    if (text.charCodeAt(i) > 0x7f) {
      ascii = false;
      break;
    }
  }
  if (ascii) {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = text.charCodeAt(i);
    return out;
  }
  // At most 3 bytes per UTF-16 code unit (a surrogate pair is 2 units -> 4 bytes).
  const out = new Uint8Array(n * 3);
  let o = 0;
  for (let i = 0; i < n; i++) {
    let c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const next = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        c = 0xfffd;
      }
    }
    if (c < 0x80) {
      out[o++] = c;
    } else if (c < 0x800) {
      out[o++] = 0xc0 | (c >> 6);
      out[o++] = 0x80 | (c & 0x3f);
    } else if (c < 0x10000) {
      out[o++] = 0xe0 | (c >> 12);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    } else {
      out[o++] = 0xf0 | (c >> 18);
      out[o++] = 0x80 | ((c >> 12) & 0x3f);
      out[o++] = 0x80 | ((c >> 6) & 0x3f);
      out[o++] = 0x80 | (c & 0x3f);
    }
  }
  return out.slice(0, o);
}
