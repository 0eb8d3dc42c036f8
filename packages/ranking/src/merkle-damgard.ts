/**
 * The Merkle–Damgård frame shared by MD5, SHA-1 and SHA-256: the message in 64-byte blocks, then
 * the padding 0x80, zeros, and the message length in bits as a 64-bit integer (little-endian for
 * MD5, big-endian for the SHA family), fed to the same block function.
 */
export function mdBlocks(
  input: Uint8Array,
  littleEndianLength: boolean,
  block: (data: Uint8Array, offset: number) => void,
): void {
  const len = input.length;
  const full = len - (len % 64);
  for (let off = 0; off < full; off += 64) block(input, off);
  const rem = len - full;
  const tail = new Uint8Array(rem < 56 ? 64 : 128);
  tail.set(input.subarray(full));
  tail[rem] = 0x80;
  const bitsLo = (len % 0x20000000) * 8; // < 2^32
  const bitsHi = Math.floor(len / 0x20000000);
  const view = new DataView(tail.buffer);
  const at = tail.length - 8;
  view.setUint32(at, littleEndianLength ? bitsLo : bitsHi, littleEndianLength);
  view.setUint32(at + 4, littleEndianLength ? bitsHi : bitsLo, littleEndianLength);
  for (let off = 0; off < tail.length; off += 64) block(tail, off);
}

/** The state words as big-endian bytes (the SHA family's digest layout). */
export function bigEndianWords(state: Int32Array, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  for (let i = 0; i < bytes / 4; i++) view.setInt32(i * 4, state[i]!);
  return out;
}
