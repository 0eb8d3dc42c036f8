import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * SHA-256 of the UTF-8 of `text`, as lower-case hex: a memory's content hash (duplicates, the
 * Bloom filter, recovery checks) and the TF-IDF tokenizer's version (seed 002).
 */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
