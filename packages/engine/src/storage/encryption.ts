import { AnamnesisError } from '@anamnesis/errors';
import type { FileHeader } from '../io/page-scan.ts';

/**
 * Encryption at rest of a store (opt-in): what the options say, how a passphrase becomes a key,
 * and how a file's header says it is encrypted. Pure (no `node:` import): the browser's OPFS store
 * can use it too.
 *
 * The pages are encrypted by SQLite3 Multiple Ciphers (SQLite3MC), cipher `chacha20`
 * (ChaCha20-Poly1305: every page encrypted and authenticated, a fresh nonce per write). The key is
 * not SQLite3MC's own PBKDF2 of the passphrase: it is derived here with scrypt (memory-hard,
 * {@link KDF}) and given to SQLite3MC raw (`PRAGMA key = 'raw:<key hex><salt hex>'`), which
 * bypasses its own key derivation. The scrypt salt is SQLite3MC's salt: the first 16 bytes of
 * the file, which SQLite3MC keeps in plain text because it is needed before the key. A new store's
 * random salt is given to SQLite3MC with the key, so it writes that salt into its header. So the
 * salt is always readable before the key and lives in the store file itself: nothing beside it to
 * lose, back up or keep in step.
 *
 * A re-key keeps the salt (as SQLCipher's does): only the passphrase changes. A new salt would make
 * the key depend on which copy of page 1 a crash left: killed after the re-key wrote the new page 1
 * but before it committed, the file shows the new salt while its rollback journal holds the old
 * pages, so neither passphrase would derive the key that opens it. With one salt, the old
 * passphrase derives the old key, the journal rolls the file back, and the store opens as it was.
 */

/** What `EngineOptions.encryption` takes. */
export interface EncryptionOptions {
  /**
   * The passphrase the store's key is derived from (scrypt, N = 2^17, r = 8, p = 1: about
   * 128 MiB and a few hundred ms once per open). 1–1,024 characters, compared after Unicode NFC
   * normalisation (the same words typed on another keyboard give the same key). Never stored.
   */
  passphrase: string;
}

/** The key derivation: scrypt, with OWASP's minimum cost for it (128 MiB, about 0.3 s native). */
export const KDF = { name: 'scrypt', N: 2 ** 17, r: 8, p: 1, keyBytes: 32 } as const;

/** Bytes of SQLite3MC's salt at the start of an encrypted file (its chacha20 cipher's). */
export const SALT_BYTES = 16;

/** SQLite3MC's cipher used for every encrypted store. */
export const CIPHER = 'chacha20';

const MAX_PASSPHRASE = 1024;

/** The checked passphrase of `encryption` (`INVALID_INPUT` unless a usable one), or undefined. */
export function passphraseOf(encryption: unknown): string | undefined {
  if (encryption === undefined) return undefined;
  if (encryption === null || typeof encryption !== 'object')
    throw new AnamnesisError('INVALID_INPUT', 'encryption must be an object { passphrase }');
  return checkPassphrase((encryption as { passphrase?: unknown }).passphrase, 'passphrase');
}

/** `passphrase` NFC-normalised, or `INVALID_INPUT` naming `what`. */
export function checkPassphrase(passphrase: unknown, what: string): string {
  if (typeof passphrase !== 'string' || passphrase.length === 0)
    throw new AnamnesisError('INVALID_INPUT', `${what} must be a non-empty string`);
  const normalized = passphrase.normalize('NFC');
  if (normalized.length > MAX_PASSPHRASE)
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be at most ${MAX_PASSPHRASE} characters`,
    );
  return normalized;
}

/** A scrypt implementation (`node:crypto`'s in Node, `@noble/hashes`' in a browser). */
export type Scrypt = (
  passphrase: Uint8Array,
  salt: Uint8Array,
  params: { N: number; r: number; p: number; keyBytes: number },
) => Promise<Uint8Array>;

function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

/**
 * The value of `PRAGMA key` / `PRAGMA rekey` for `passphrase` and `salt`: SQLite3MC's raw key
 * syntax, the derived key then the salt in hex (SQLite3MC writes the salt into a new or re-keyed
 * file's header and ignores it when the file has one). Hex digits only: safe inside quotes.
 */
export async function rawKey(
  scrypt: Scrypt,
  passphrase: string,
  salt: Uint8Array,
): Promise<string> {
  if (salt.length !== SALT_BYTES) throw new AnamnesisError('INTERNAL', 'salt of the wrong length');
  const key = await scrypt(new TextEncoder().encode(passphrase), salt, KDF);
  try {
    return `raw:${hex(key)}${hex(salt)}`;
  } finally {
    key.fill(0);
  }
}

/**
 * The salt of `key` (a {@link rawKey} value, whose last 32 hex digits are the salt).
 */
function saltOf(key: string): Uint8Array {
  const saltHex = key.slice(-2 * SALT_BYTES);
  const salt = new Uint8Array(SALT_BYTES);
  for (let i = 0; i < SALT_BYTES; i++) salt[i] = parseInt(saltHex.slice(2 * i, 2 * i + 2), 16);
  return salt;
}

/**
 * An encrypted store's `rekey` and `keyMatches` (see `StorageBackend`), following the key it is
 * encrypted under now: `key` at open, then each new key put in place. A re-key derives the new key
 * from the passphrase and the store's own salt (kept: see above), then `rekeyWith` re-keys the
 * store with it; `keyMatches` is one scrypt, about as long as an open's.
 */
export function keyHolder(
  scrypt: Scrypt,
  key: string,
  rekeyWith: (key: string) => void | Promise<void>,
): { rekey(passphrase: string): Promise<void>; keyMatches(passphrase: string): Promise<boolean> } {
  let current = key;
  return {
    rekey: async (passphrase) => {
      const next = await rawKey(scrypt, checkPassphrase(passphrase, 'passphrase'), saltOf(current));
      await rekeyWith(next);
      current = next;
    },
    keyMatches: async (passphrase) =>
      (await rawKey(scrypt, passphrase, saltOf(current))) === current,
  };
}

/**
 * Refuses a store whose header disagrees with the options, before anything opens or writes it:
 * `ENCRYPTION_MISMATCH` for an encrypted store opened without a passphrase or a plain one opened
 * with one (`details.encrypted` says which the store is), and, with a passphrase, `STORE_CORRUPT`
 * for a file that is neither SQLite's nor SQLite3MC's (its first bytes damaged, or another kind of
 * file). `what` names the store in the message (a path, an OPFS store's name); `details` is added
 * to each error's.
 */
export function checkHeader(
  header: FileHeader,
  encrypted: boolean,
  what: string,
  details: Record<string, unknown>,
): void {
  if (!encrypted && header === 'encrypted')
    throw new AnamnesisError(
      'ENCRYPTION_MISMATCH',
      `${what} is an encrypted store: open it with encryption: { passphrase }`,
      { details: { ...details, encrypted: true } },
    );
  if (encrypted && header === 'plain')
    throw new AnamnesisError(
      'ENCRYPTION_MISMATCH',
      `${what} is a store that is not encrypted: open it without encryption (to encrypt it, export it and import it into a new encrypted store)`,
      { details: { ...details, encrypted: false } },
    );
  if (encrypted && header === 'unknown')
    throw new AnamnesisError(
      'STORE_CORRUPT',
      `${what}: neither a SQLite file nor an encrypted store (its first bytes are damaged or it is another kind of file)`,
      { details },
    );
}
