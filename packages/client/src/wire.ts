/**
 * Errors across realms. Comlink keeps only `name`, `message` and `stack` of a thrown error; this
 * module's `'throw'` transfer handler (registered in the page and in the worker) also keeps an
 * {@link AnamnesisError}'s `code` and `details`, so `instanceof AnamnesisError` and `.code` work
 * on the page exactly as in the worker. The same wire form carries errors over BroadcastChannel.
 */
import { AnamnesisError, ERROR_CODES, type ErrorCode } from '@anamnesis/ranking';
import * as Comlink from 'comlink';

/** An error as plain, structured-cloneable data. */
export interface WireError {
  name: string;
  message: string;
  stack?: string;
  /** The catalogue code, for an {@link AnamnesisError}. */
  code?: ErrorCode;
  details?: Record<string, unknown>;
  /** The cause's name and message, when there was one. */
  cause?: { name: string; message: string };
}

/** Details made structured-cloneable (JSON round trip; anything else is dropped). */
function cloneable(details: unknown): Record<string, unknown> | undefined {
  if (details === undefined || details === null) return undefined;
  try {
    return JSON.parse(JSON.stringify(details)) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Converts anything thrown into its wire form. */
export function toWireError(e: unknown): WireError {
  if (e instanceof Error) {
    const { code, details } = e as { code?: unknown; details?: unknown };
    const cause = (e as { cause?: unknown }).cause;
    const wire: WireError = { name: e.name, message: e.message };
    if (e.stack !== undefined) wire.stack = e.stack;
    if (typeof code === 'string' && code in ERROR_CODES) wire.code = code as ErrorCode;
    const d = cloneable(details);
    if (d) wire.details = d;
    if (cause instanceof Error) wire.cause = { name: cause.name, message: cause.message };
    return wire;
  }
  return { name: 'Error', message: String(e) };
}

/** Rebuilds an error from its wire form: an {@link AnamnesisError} when it carries a code. */
export function fromWireError(wire: WireError): Error {
  let error: Error;
  if (wire.code && wire.code in ERROR_CODES) {
    error = new AnamnesisError(wire.code, undefined, {
      ...(wire.details ? { details: wire.details } : {}),
      ...(wire.cause ? { cause: Object.assign(new Error(wire.cause.message), wire.cause) } : {}),
    });
  } else {
    error = new Error(wire.message);
    if (wire.name !== 'Error') error.name = wire.name;
  }
  // Same text as the original (the AnamnesisError constructor would prefix the catalogue text
  // a second time); the stack is the original realm's, which is where the error happened.
  error.message = wire.message;
  if (wire.stack !== undefined) error.stack = wire.stack;
  return error;
}

/** Comlink's wrapper of a thrown value: an object with a `Symbol('Comlink.thrown')` key. */
function isThrown(value: unknown): value is { value: unknown } {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getOwnPropertySymbols(value).some((s) => s.description === 'Comlink.thrown')
  );
}

type SerializedThrow = { isError: true; value: WireError } | { isError: false; value: unknown };

/**
 * Registers the `'throw'` transfer handler that keeps error codes. Must run in both realms (it
 * serialises in the realm that throws and deserialises in the one that called); idempotent.
 */
export function registerErrorTransfer(): void {
  Comlink.transferHandlers.set('throw', {
    canHandle: isThrown,
    serialize(thrown: { value: unknown }): [SerializedThrow, Transferable[]] {
      const { value } = thrown;
      if (value instanceof Error) return [{ isError: true, value: toWireError(value) }, []];
      return [{ isError: false, value }, []];
    },
    deserialize(serialized: SerializedThrow): never {
      if (serialized.isError) throw fromWireError(serialized.value);
      throw serialized.value;
    },
  } as Comlink.TransferHandler<unknown, unknown>);
}
