import { AnamnesisError, assertInRange } from '@anamnesis/errors';
import { assertMetaKey, assertMetaValue, dateTime } from './filter.ts';
import { ISO_FORMS, isoTime } from './iso-time.ts';
import { assertColumnText, assertWellFormed, stripBom } from './text.ts';
import type { LinkInput, Memory, MetaValue, RememberInput, UpdateInput } from '../types.ts';

/** A validated, normalised memory ready to insert (the store adds the rest of a `Memory`). */
export type NewMemory = Omit<Memory, 'id' | 'updatedAt' | 'accessCount' | 'pinned'> & {
  id: string | undefined;
  links: Required<LinkInput>[];
  allowDuplicate: boolean;
};

const MAX_TAGS = 256;
const MAX_LABEL = 512;
/** Most metadata entries one memory may carry. */
export const MAX_META_KEYS = 256;
/** Most characters a memory's metadata may take as JSON (64 Ki). */
export const MAX_META_CHARS = 64 * 1024;
/** Most links one memory may have to others (counted per source memory). */
export const MAX_LINKS = 1024;

function label(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LABEL) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be a non-empty string of at most ${MAX_LABEL} characters`,
    );
  }
  return assertColumnText(value, what);
}

/**
 * Validates text: a string, not blank, at most `maxLength` characters, well formed (no lone
 * surrogate). Leading byte order marks (U+FEFF) are dropped; nothing else is changed.
 */
export function validateText(value: unknown, maxLength: number): string {
  if (typeof value !== 'string') throw new AnamnesisError('INVALID_INPUT', 'text must be a string');
  const text = stripBom(value);
  if (text.trim().length === 0)
    throw new AnamnesisError('INVALID_INPUT', 'text must not be empty or blank');
  if (text.length > maxLength) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `text has ${text.length} characters; the limit is ${maxLength}`,
    );
  }
  return assertWellFormed(text, 'text');
}

export function validateTags(tags: unknown): string[] {
  if (tags === undefined) return [];
  if (!Array.isArray(tags) || tags.length > MAX_TAGS) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `tags must be an array of at most ${MAX_TAGS} strings`,
    );
  }
  return [...new Set(tags.map((t) => label(t, 'each tag')))];
}

export function validateMeta(meta: unknown): Record<string, MetaValue> {
  if (meta === undefined) return {};
  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {
    throw new AnamnesisError('INVALID_INPUT', 'meta must be a plain object');
  }
  const entries = Object.entries(meta);
  if (entries.length > MAX_META_KEYS) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `meta has ${entries.length} keys; the limit is ${MAX_META_KEYS}`,
    );
  }
  let chars = 2;
  for (const [key, value] of entries) {
    assertMetaKey(key);
    assertMetaValue(value, key);
    chars += JSON.stringify(key).length + JSON.stringify(value).length + 2;
    if (chars > MAX_META_CHARS) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `meta takes more than ${MAX_META_CHARS} characters; store large values as text`,
      );
    }
  }
  // fromEntries defines own properties: a key such as `__proto__` is kept, not swallowed.
  return Object.fromEntries(entries);
}

export function validateLinks(links: unknown): Required<LinkInput>[] {
  if (links === undefined) return [];
  if (!Array.isArray(links)) throw new AnamnesisError('INVALID_INPUT', 'links must be an array');
  if (links.length > MAX_LINKS) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `a memory may have at most ${MAX_LINKS} links (${links.length} given)`,
    );
  }
  return links.map((l: LinkInput) => {
    if (!l || typeof l !== 'object')
      throw new AnamnesisError('INVALID_INPUT', 'each link must be an object');
    const weight = l.weight ?? 1;
    // Up to 2^53: SQLite-WASM stores a whole-number REAL of 2^63 or more as a wrapped integer
    // (1e300 comes back as 0), so larger weights would not survive.
    assertInRange(weight, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER, 'link weight');
    return {
      to: label(l.to, 'link target'),
      kind: label(l.kind ?? 'related', 'link kind'),
      weight,
    };
  });
}

function session(value: unknown): string | null {
  return value === undefined || value === null ? null : label(value, 'session');
}

/** The range of a JavaScript Date, in ms: within it every time is a safe integer or a fraction. */
export const MAX_TIME = 8.64e15;

/**
 * Validates a stored time (`createdAt`, an import's `updatedAt`): ms since the epoch, a Date, or an
 * ISO 8601 string (`isoTime`: a date alone is midnight UTC, a time needs `Z` or an offset), within
 * ±{@link MAX_TIME}. SQLite keeps an integral time as a 64-bit integer, which SQLite-WASM reads
 * back as a BigInt beyond 2^53: such a row could no longer be exported.
 */
export function validateTime(value: unknown, what: string): number {
  const ms =
    typeof value === 'string'
      ? isoTime(value, what)
      : value instanceof Date
        ? dateTime(value)
        : value;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be a finite time in ms since the epoch, a Date, or ${ISO_FORMS}`,
    );
  }
  assertInRange(ms, -MAX_TIME, MAX_TIME, what);
  return ms;
}

/** Validates one `remember` input. */
export function validateRemember(
  input: RememberInput,
  now: number,
  maxTextLength: number,
): NewMemory {
  if (!input || typeof input !== 'object')
    throw new AnamnesisError('INVALID_INPUT', 'a memory must be an object');
  const importance = input.importance ?? 0.5;
  assertInRange(importance, 0, 1, 'importance');
  const memoryScore = input.memoryScore ?? 0;
  assertInRange(memoryScore, 0, 1, 'memoryScore');
  return {
    id: input.id === undefined ? undefined : label(input.id, 'id'),
    text: validateText(input.text, maxTextLength),
    kind: input.kind === undefined ? 'note' : label(input.kind, 'kind'),
    session: session(input.session),
    tags: validateTags(input.tags),
    meta: validateMeta(input.meta),
    importance,
    createdAt: input.createdAt === undefined ? now : validateTime(input.createdAt, 'createdAt'),
    memoryScore,
    links: validateLinks(input.links),
    allowDuplicate: input.allowDuplicate === true,
  };
}

/** Validates an `update` patch; only the fields present are returned. */
export function validateUpdate(patch: UpdateInput, maxTextLength: number): Partial<NewMemory> {
  if (!patch || typeof patch !== 'object')
    throw new AnamnesisError('INVALID_INPUT', 'the update must be an object');
  const known = new Set(['text', 'importance', 'tags', 'meta', 'kind', 'session', 'memoryScore']);
  for (const key of Object.keys(patch)) {
    if (!known.has(key))
      throw new AnamnesisError('INVALID_INPUT', `cannot update ${JSON.stringify(key)}`);
  }
  const out: Partial<NewMemory> = {};
  if (patch.text !== undefined) out.text = validateText(patch.text, maxTextLength);
  if (patch.importance !== undefined) {
    assertInRange(patch.importance, 0, 1, 'importance');
    out.importance = patch.importance;
  }
  if (patch.memoryScore !== undefined) {
    assertInRange(patch.memoryScore, 0, 1, 'memoryScore');
    out.memoryScore = patch.memoryScore;
  }
  if (patch.tags !== undefined) out.tags = validateTags(patch.tags);
  if (patch.meta !== undefined) out.meta = validateMeta(patch.meta);
  if (patch.kind !== undefined) out.kind = label(patch.kind, 'kind');
  if ('session' in patch) out.session = session(patch.session);
  return out;
}

/** Validates a memory id argument. */
export function validateId(id: unknown): string {
  return label(id, 'id');
}
