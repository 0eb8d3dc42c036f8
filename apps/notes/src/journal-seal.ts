/**
 * The pending-writes journal of locked notes, sealed. The journal (`pending-writes.ts`) keeps each
 * save in `localStorage` until the store acknowledges it, so that a reload right after Save loses
 * nothing; while the notes are locked, a journal in plain text would put a note the person just
 * wrote on disk unencrypted (in the browser's Local Storage files, which keep old records for a
 * while). So it is sealed: XChaCha20-Poly1305 (`@noble/ciphers`, synchronous, as the journal is
 * written in the click's own task) under a key derived from the passphrase by scrypt at the cost
 * of the store's own encryption (so the journal is no easier to attack than the store), with a
 * random salt kept beside it. The passphrase is never stored; the key lives in this page only.
 */
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { bytesToHex, hexToBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/** Where the salt is kept (not secret). */
const SALT_KEY = 'anamnesis-notes:pending-salt';
/** scrypt's cost: the store's encryption's (128 MiB, about a second); run once per unlock. */
const KDF = { N: 2 ** 17, r: 8, p: 1, dkLen: 32 } as const;
const NONCE_BYTES = 24;

/** Seals and opens the journal's text. */
export interface JournalSeal {
  /** The text sealed, as hex (nonce, then ciphertext and tag). */
  seal(text: string): string;
  /** The text of a sealed journal, or undefined when it does not open (another key, damaged). */
  open(sealed: string): string | undefined;
}

/** The journal's seal for this passphrase (the salt made and kept at the first use). */
export async function journalSeal(
  passphrase: string,
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined,
): Promise<JournalSeal> {
  let salt = storage?.getItem(SALT_KEY) ?? undefined;
  if (!salt || !/^[0-9a-f]{32}$/.test(salt)) {
    salt = bytesToHex(crypto.getRandomValues(new Uint8Array(16)));
    try {
      storage?.setItem(SALT_KEY, salt);
    } catch {
      // storage full or unavailable: this page's journal is sealed under a salt it alone knows
    }
  }
  const key = await scryptAsync(utf8ToBytes(passphrase.normalize('NFC')), hexToBytes(salt), KDF);
  return {
    seal(text) {
      const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
      const sealed = xchacha20poly1305(key, nonce).encrypt(utf8ToBytes(text));
      return bytesToHex(nonce) + bytesToHex(sealed);
    },
    open(sealed) {
      try {
        const bytes = hexToBytes(sealed);
        const plain = xchacha20poly1305(key, bytes.subarray(0, NONCE_BYTES)).decrypt(
          bytes.subarray(NONCE_BYTES),
        );
        return new TextDecoder().decode(plain);
      } catch {
        return undefined;
      }
    },
  };
}
