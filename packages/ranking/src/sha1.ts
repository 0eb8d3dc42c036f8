/**
 * SHA-1 (FIPS 180-4) in pure TypeScript. Used only as the second hash of the Bloom filter's
 * Kirsch–Mitzenmacher construction (seed 002 §8); it is not used for anything security-relevant.
 */

import { AnamnesisError } from './errors.ts';
import { bigEndianWords, mdBlocks } from './merkle-damgard.ts';

/** Digest length of {@link sha1}, in bytes. */
export const SHA1_DIGEST_BYTES = 20;

function compress(state: Int32Array, block: Uint8Array, offset: number, w: Int32Array): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = (block[j]! << 24) | (block[j + 1]! << 16) | (block[j + 2]! << 8) | block[j + 3]!;
  }
  for (let i = 16; i < 80; i++) {
    const x = w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!;
    w[i] = (x << 1) | (x >>> 31);
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  let e = state[4]!;
  for (let i = 0; i < 80; i++) {
    let f: number;
    let k: number;
    if (i < 20) {
      f = (b & c) | (~b & d);
      k = 0x5a827999;
    } else if (i < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8f1bbcdc;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6;
    }
    const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]!) | 0;
    e = d;
    d = c;
    c = (b << 30) | (b >>> 2);
    b = a;
    a = t;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
  state[4] = (state[4]! + e) | 0;
}

/** The 20-byte SHA-1 digest of `input`. Throws `INVALID_INPUT` when `input` is not a Uint8Array. */
export function sha1(input: Uint8Array): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new AnamnesisError('INVALID_INPUT', 'sha1 input must be a Uint8Array');
  }
  const state = Int32Array.of(0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0);
  const w = new Int32Array(80);
  mdBlocks(input, false, (data, off) => compress(state, data, off, w));

  return bigEndianWords(state, SHA1_DIGEST_BYTES);
}
