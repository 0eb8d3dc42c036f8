/**
 * The one error catalogue of anamnesis. Every package throws {@link AnamnesisError} with one of
 * these stable codes; the code (not the message) is the contract, and it survives the worker
 * boundary.
 */
export const ERROR_CODES = {
  INVALID_INPUT: 'The input is not valid',
  DIMENSION_MISMATCH: 'Vectors have different dimensions',
  NOT_FOUND: 'No memory has this id',
  QUOTA_EXCEEDED: 'The storage quota is exhausted; nothing was written',
  MODEL_LOAD_FAILED: 'The embedding model could not be loaded',
  MODEL_MISMATCH: 'The store was built with another embedding model',
  STORE_LOCKED: 'The store is held by another owner',
  STORE_CORRUPT: 'The store file is corrupt',
  OWNER_CHANGED: 'The owner of the store changed while the call was in flight',
  TIMEOUT: 'The call timed out',
  CLOSED: 'The memory is closed',
  UNSUPPORTED: 'This environment does not support the operation',
  INTERNAL: 'An internal error occurred',
} as const;

/** A stable error code from {@link ERROR_CODES}. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** The error type of anamnesis: a stable `code`, a human message and optional details. */
export class AnamnesisError extends Error {
  override readonly name = 'AnamnesisError';
  readonly code: ErrorCode;
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
