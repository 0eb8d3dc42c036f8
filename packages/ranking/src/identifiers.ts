/** Seed 002's identifier token: a letter or underscore, then at least two word characters. */
export const IDENTIFIER_PATTERN = /[a-zA-Z_][a-zA-Z0-9_]{2,}/g;

/** Seed 002's minimum sub-token length. */
export const MIN_SUBTOKEN_LEN = 2;

/** Identifier tokens of `text` (seed 002's regex), in order, not lower-cased. */
export function identifierTokens(text: string): string[] {
  return text.match(IDENTIFIER_PATTERN) ?? [];
}

/**
 * Splits an identifier into lower-cased parts: camelCase via `([a-z])([A-Z]) → $1_$2`, then
 * snake_case on underscores; parts shorter than {@link MIN_SUBTOKEN_LEN} are dropped.
 * `getUserById` → `get, user, by, id`.
 */
export function splitIdentifier(token: string): string[] {
  return token
    .replace(/([a-z])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split('_')
    .filter((p) => p.length >= MIN_SUBTOKEN_LEN);
}
