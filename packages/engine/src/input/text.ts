import { AnamnesisError } from '@anamnesis/errors';

/** A UTF-16 surrogate without its pair: SQLite stores text as UTF-8, where it cannot exist. */
const LONE_SURROGATE = /\p{Cs}/u;
const LEADING_BOM = /^\uFEFF+/;

/**
 * Throws `INVALID_INPUT` when `value` holds a lone surrogate. Such a string cannot be stored as
 * UTF-8: SQLite would silently replace it with U+FFFD, so the text (or id) read back would differ
 * from the one given, and an id could never be found again.
 */
export function assertWellFormed(value: string, what: string): string {
  if (LONE_SURROGATE.test(value)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} holds a lone UTF-16 surrogate, which cannot be stored`,
    );
  }
  return value;
}

/**
 * Checks a string stored in a column of its own (id, kind, session, link kind): well formed, and
 * not starting with U+FEFF, which SQLite-WASM's UTF-8 decoder drops when the value is read back.
 */
export function assertColumnText(value: string, what: string): string {
  if (LEADING_BOM.test(value)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} starts with U+FEFF (a byte order mark), which cannot be read back`,
    );
  }
  return assertWellFormed(value, what);
}

/**
 * Drops leading byte order marks (U+FEFF) from a memory's text: a file-encoding artefact that
 * SQLite-WASM's UTF-8 decoder would drop on read anyway, so the text read back is the text stored.
 */
export function stripBom(text: string): string {
  return text.replace(LEADING_BOM, '');
}
