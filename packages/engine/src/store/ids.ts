const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

let lastTime = -1;
let lastRandom = new Uint8Array(10);

function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ALPHABET[ms % 32]! + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const b of bytes) {
    acc = (acc << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31]!;
    }
  }
  return out;
}

/**
 * A time-ordered id (ULID layout: 10 characters of millisecond time, 16 of randomness, Crockford
 * base32). Ids made in the same millisecond increase monotonically, so sorting ids sorts by
 * creation.
 */
export function newId(now: number): string {
  const ms = Math.max(0, Math.floor(now));
  if (ms <= lastTime) {
    // same (or earlier, clock skew) millisecond: increment the random part
    for (let i = lastRandom.length - 1; i >= 0; i--) {
      if (lastRandom[i]! < 255) {
        lastRandom[i]!++;
        break;
      }
      lastRandom[i] = 0;
    }
  } else {
    lastTime = ms;
    lastRandom = crypto.getRandomValues(new Uint8Array(10));
  }
  return encodeTime(lastTime) + encodeRandom(lastRandom);
}
