import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** One encoder for every hash (`utf8ToBytes` makes an encoder, a copy and a wipe per call). */
const utf8 = new TextEncoder();

/**
 * SHA-256 of the UTF-8 of `text`, as lower-case hex: a memory's content hash (duplicates, the
 * Bloom filter, recovery checks) and the TF-IDF tokenizer's version (seed 002).
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8.encode(text)));
}
