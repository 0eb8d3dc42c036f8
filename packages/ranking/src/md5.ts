/**
 * MD5 (RFC 1321) in pure TypeScript. Used only as the first hash of the Bloom filter's
 * Kirsch–Mitzenmacher construction (seed 002 §8); it is not used for anything security-relevant.
 */

import { AnamnesisError } from './errors.ts';
import { mdBlocks } from './merkle-damgard.ts';

/** Digest length of {@link md5}, in bytes. */
export const MD5_DIGEST_BYTES = 16;

// floor(|sin(i + 1)| * 2^32), i = 0..63 (RFC 1321 §3.4).
// prettier-ignore
const K = Int32Array.of(
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
  0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
  0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
  0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
  0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
  0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
  0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
  0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
);

// Per-round left-rotation amounts.
// prettier-ignore
const S = Uint8Array.of(
  7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
  5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
  4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
  6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
);

function compress(state: Int32Array, block: Uint8Array, offset: number, w: Int32Array): void {
  for (let i = 0; i < 16; i++) {
    const j = offset + i * 4;
    w[i] = block[j]! | (block[j + 1]! << 8) | (block[j + 2]! << 16) | (block[j + 3]! << 24);
  }
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  for (let i = 0; i < 64; i++) {
    let f: number;
    let g: number;
    if (i < 16) {
      f = (b & c) | (~b & d);
      g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c);
      g = (5 * i + 1) & 15;
    } else if (i < 48) {
      f = b ^ c ^ d;
      g = (3 * i + 5) & 15;
    } else {
      f = c ^ (b | ~d);
      g = (7 * i) & 15;
    }
    const x = (a + f + K[i]! + w[g]!) | 0;
    const s = S[i]!;
    a = d;
    d = c;
    c = b;
    b = (b + ((x << s) | (x >>> (32 - s)))) | 0;
  }
  state[0] = (state[0]! + a) | 0;
  state[1] = (state[1]! + b) | 0;
  state[2] = (state[2]! + c) | 0;
  state[3] = (state[3]! + d) | 0;
}

/** The 16-byte MD5 digest of `input`. Throws `INVALID_INPUT` when `input` is not a Uint8Array. */
export function md5(input: Uint8Array): Uint8Array {
  if (!(input instanceof Uint8Array)) {
    throw new AnamnesisError('INVALID_INPUT', 'md5 input must be a Uint8Array');
  }
  const state = Int32Array.of(0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476);
  const w = new Int32Array(16);
  mdBlocks(input, true, (data, off) => compress(state, data, off, w));

  const out = new Uint8Array(MD5_DIGEST_BYTES);
  for (let i = 0; i < 4; i++) {
    const v = state[i]!;
    out[i * 4] = v & 0xff;
    out[i * 4 + 1] = (v >>> 8) & 0xff;
    out[i * 4 + 2] = (v >>> 16) & 0xff;
    out[i * 4 + 3] = (v >>> 24) & 0xff;
  }
  return out;
}
