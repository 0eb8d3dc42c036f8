/**
 * The one error catalogue of anamnesis. Every package throws {@link AnamnesisError} with one of
 * these stable codes; the code (not the message) is the contract, and it survives the worker
 * boundary.
 */
export const ERROR_CODES = {
  /** An argument or option is not valid (wrong type, out of range, unsafe key); nothing was changed. */
  INVALID_INPUT: 'The input is not valid',
  /** Vectors of different dimensions were compared or stored together. */
  DIMENSION_MISMATCH: 'Vectors have different dimensions',
  /** No memory has the id given (`update`, `link`…). */
  NOT_FOUND: 'No memory has this id',
  /** The storage refused the write for lack of space; the store is unchanged. */
  QUOTA_EXCEEDED: 'The storage quota is exhausted; nothing was written',
  /** The embedding model could not be fetched, parsed or started. */
  MODEL_LOAD_FAILED: 'The embedding model could not be loaded',
  /** The store was embedded by another model; open it with `onModelMismatch: 'reembed'` to switch. */
  MODEL_MISMATCH: 'The store was built with another embedding model',
  /**
   * Another owner (a tab, a worker, a recovery) holds the store; for a file store, another process
   * held its write lock for longer than the busy timeout. Nothing was written: retry.
   */
  STORE_LOCKED: 'The store is held by another owner',
  /** The store's file or its folder cannot be written (a read-only mount, file or folder); nothing was written. */
  READ_ONLY: 'The store is read-only; nothing was written',
  /**
   * The store does not exist: a file store opened with `create: false` (the CLI's `stats`,
   * `recall`, `export`) at a path where there is no file, a mistyped `--db`. Nothing was created.
   * Also a file store whose file was deleted, moved or replaced while the engine had it open
   * (`rm memory.db*`): every call fails so from then on, and no write was acknowledged after.
   */
  STORE_NOT_FOUND: 'The store does not exist',
  /** The store file is damaged; `recoverStore` / `recoverMemory` salvage what is readable. */
  STORE_CORRUPT: 'The store file is corrupt',
  /**
   * The passphrase given does not open the encrypted store (the key it derives does not
   * authenticate the store's first page). Nothing was read or written: the store is as it was;
   * open it again with the right passphrase.
   */
  WRONG_PASSPHRASE: 'The passphrase does not open the encrypted store',
  /**
   * The store is encrypted and was opened without `encryption` (or an encrypted store's options
   * were given for a store that is not encrypted: `details.encrypted` says which). Nothing was read
   * or written.
   */
  ENCRYPTION_MISMATCH: 'The store is encrypted and no passphrase was given, or the reverse',
  /**
   * A synced record failed its authentication (`@anamnesis/sync`): altered on the server or on
   * the way, or written under another key. It is ignored; the device's memories are unchanged.
   */
  SYNC_TAMPERED: 'A synced record failed its authentication',
  /** Another device of the sync removed this one: its code was changed, and it is told nothing new. */
  SYNC_REMOVED: 'This device was removed from the sync',
  /** The owner tab changed while a forwarded call was in flight; retry it (its operation id keeps a write from applying twice). */
  OWNER_CHANGED: 'The owner of the store changed while the call was in flight',
  /** The call did not answer in time (the client's deadlines). */
  TIMEOUT: 'The call timed out',
  /**
   * Another tab of the app, of another version (an update came between the two), owns the store:
   * the two cannot share it. The message says which tab to reload; `details` give both tab
   * protocol versions (`protocol`: this tab's, `other`: the owner's).
   */
  VERSION_MISMATCH: 'A tab of another version of the app owns the store',
  /** The engine or client was closed. */
  CLOSED: 'The memory is closed',
  /** The environment or the contract lacks the operation (no OPFS, raw vectors in the LangChain store, a method a follower cannot forward). */
  UNSUPPORTED: 'This environment does not support the operation',
  /** Anything unforeseen: a bug to report. */
  INTERNAL: 'An internal error occurred',
} as const;

/** A stable error code from {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The error type of anamnesis: a stable `code`, a human message and optional details. */
export class AnamnesisError extends Error {
  /** Always `'AnamnesisError'`. */
  override readonly name = 'AnamnesisError';
  /** The stable code: the contract callers branch on. */
  readonly code: ErrorCode;
  /** Structured context, when the thrower gave some (ids, limits, the SQLite code…). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: ErrorCode,
    message?: string,
    options?: { details?: Record<string, unknown>; cause?: unknown },
  ) {
    super(message ? `${ERROR_CODES[code]}: ${message}` : ERROR_CODES[code], {
      cause: options?.cause,
    });
    this.code = code;
    this.details = options?.details;
  }
}

/** True when `value` is an {@link AnamnesisError}, optionally with the given code. */
export function isAnamnesisError(value: unknown, code?: ErrorCode): value is AnamnesisError {
  return value instanceof AnamnesisError && (code === undefined || value.code === code);
}

/** `String(value)` for an error message; never throws (hostile objects may refuse conversion). */
function shown(value: unknown): string {
  try {
    return String(value);
  } catch {
    return typeof value;
  }
}

/** Throws `INVALID_INPUT` naming `what` unless `value` is a finite number. */
export function assertFinite(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be a finite number, got ${shown(value)}`,
    );
  }
}

/** Throws `INVALID_INPUT` unless `value` is a finite number within [min, max]. */
export function assertInRange(
  value: unknown,
  min: number,
  max: number,
  what: string,
): asserts value is number {
  assertFinite(value, what);
  if (value < min || value > max) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be within [${min}, ${max}], got ${value}`,
    );
  }
}

/** Throws `INVALID_INPUT` unless `value` is a non-negative integer. */
export function assertNonNegativeInt(value: unknown, what: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new AnamnesisError(
      'INVALID_INPUT',
      `${what} must be a non-negative integer, got ${shown(value)}`,
    );
  }
}

/** Throws `INVALID_INPUT` unless `value` is an array. */
export function assertArray(value: unknown, what: string): asserts value is unknown[] {
  if (!Array.isArray(value)) {
    throw new AnamnesisError('INVALID_INPUT', `${what} must be an array`);
  }
}
