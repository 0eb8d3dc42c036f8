/**
 * The sync's keys and its authenticated encryption. Everything a device sends is sealed with
 * AES-256-GCM (WebCrypto's, or the platform's: `SyncOptions.cipher`; a fresh random 96-bit nonce
 * per record, the record's map key as associated data, so a record moved to another key fails too);
 * the server stores and relays only these bytes. The keys come from the sync passphrase through
 * scrypt (`@noble/hashes`, or the platform's: `SyncOptions.scrypt`; the same cost as the store's
 * encryption) with the room as salt: every device that knows the room and the passphrase derives
 * the same keys, and the server, which sees neither, cannot. The name the server knows the room by
 * comes from the same scrypt (its own output block, then an HMAC with its own label), so it depends
 * on the whole passphrase and tells nothing of the keys: finding the code from the name costs a
 * scrypt per guess of the code's 120 bits.
 */
import { AnamnesisError } from '@anamnesis/errors';
import { hmac } from '@noble/hashes/hmac.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

import type { Cipher, RecordCipher, Scrypt } from './types.ts';

/** scrypt's cost: 128 MiB and about a second, once when a sync starts. */
const KDF = { N: 2 ** 17, r: 8, p: 1 } as const;
const NONCE_BYTES = 12;

/** The keys of one sync room. */
export interface SyncKeys {
  /** The room's name on the server: 128 bits (hex) derived from the room and the passphrase. */
  readonly room: string;
  /** AES-256-GCM under the room's key. */
  readonly cipher: RecordCipher;
  /**
   * HMAC-SHA-256 keyed with the names' key (of the names the server sees of memories: their map
   * keys), its key's blocks hashed once: each name clones it.
   */
  readonly names: ReturnType<typeof hmac.create>;
}

/** WebCrypto's AES-256-GCM, its key not extractable. */
export const webCipher: Cipher = async (key) => {
  const cipher = await crypto.subtle.importKey(
    'raw',
    key as Uint8Array<ArrayBuffer>,
    'AES-GCM',
    false,
    ['encrypt', 'decrypt'],
  );
  const params = (iv: Uint8Array, aad: Uint8Array) => ({
    name: 'AES-GCM',
    iv: iv as Uint8Array<ArrayBuffer>,
    additionalData: aad as Uint8Array<ArrayBuffer>,
  });
  return {
    seal: async (iv, aad, plain) =>
      new Uint8Array(
        await crypto.subtle.encrypt(params(iv, aad), cipher, plain as Uint8Array<ArrayBuffer>),
      ),
    open: async (iv, aad, sealed) =>
      new Uint8Array(
        await crypto.subtle.decrypt(params(iv, aad), cipher, sealed as Uint8Array<ArrayBuffer>),
      ),
  };
};

/**
 * Derives the room's keys and its name on the server from the passphrase (NFC-normalised) and the
 * room. One scrypt gives 96 bytes: the first 32 are the cipher's key, the next 32 the names' key
 * (the first 64 are what a 64-byte scrypt gives: the keys are those of earlier versions), the last
 * 32 seed the room's name. scrypt ends in PBKDF2, whose output blocks are independent: the name
 * the server sees tells nothing of the keys.
 */
export async function deriveKeys(
  passphrase: string,
  room: string,
  scrypt: Scrypt = scryptAsync,
  cipher: Cipher = webCipher,
): Promise<SyncKeys> {
  const salt = sha256(utf8ToBytes(`anamnesis-sync\0${room}`));
  const bytes = await scrypt(utf8ToBytes(passphrase.normalize('NFC')), salt, {
    ...KDF,
    dkLen: 96,
    maxmem: 256 * KDF.N * KDF.r * KDF.p,
  });
  if (!(bytes instanceof Uint8Array) || bytes.length !== 96)
    throw new AnamnesisError('INTERNAL', 'sync.scrypt gave no 96 bytes');
  try {
    const name = hmac(sha256, bytes.subarray(64), utf8ToBytes('anamnesis-sync room name'));
    return {
      room: bytesToHex(name).slice(0, 32),
      cipher: await cipher(bytes.subarray(0, 32)),
      names: hmac.create(sha256, bytes.subarray(32, 64)),
    };
  } finally {
    bytes.fill(0);
  }
}

/**
 * The name the server sees for `value` (a memory id): 128 bits of its HMAC under the
 * room's key, so equal values match across devices and the server learns nothing of them.
 */
export function blindName(keys: SyncKeys, value: string): string {
  return bytesToHex(keys.names.clone().update(utf8ToBytes(value)).digest()).slice(0, 32);
}

/** Seals `plain` under the room's key, bound to `aad` (the record's map key): nonce ‖ ciphertext. */
export async function seal(keys: SyncKeys, aad: string, plain: Uint8Array): Promise<Uint8Array> {
  const iv = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = await keys.cipher.seal(iv, utf8ToBytes(aad), plain);
  const out = new Uint8Array(NONCE_BYTES + sealed.length);
  out.set(iv);
  out.set(sealed, NONCE_BYTES);
  return out;
}

/** Opens a sealed record: `SYNC_TAMPERED` when it does not authenticate under this key and `aad`. */
export async function unseal(keys: SyncKeys, aad: string, sealed: unknown): Promise<Uint8Array> {
  if (!(sealed instanceof Uint8Array) || sealed.length < NONCE_BYTES + 16)
    throw new AnamnesisError('SYNC_TAMPERED', `the synced record ${aad} is not a sealed record`, {
      details: { key: aad },
    });
  try {
    return await keys.cipher.open(
      sealed.subarray(0, NONCE_BYTES),
      utf8ToBytes(aad),
      sealed.subarray(NONCE_BYTES),
    );
  } catch (cause) {
    throw new AnamnesisError(
      'SYNC_TAMPERED',
      `the synced record ${aad} does not authenticate under this room's key (altered, or sealed under another passphrase); it is ignored`,
      { cause, details: { key: aad } },
    );
  }
}
