/**
 * Errors across realms. Comlink keeps only `name`, `message` and `stack` of a thrown error, so the
 * worker answers every call with a {@link Reply}: plain data that carries an
 * {@link AnamnesisError}'s `code` and `details` too, turned back into the same error on the page
 * (`instanceof AnamnesisError` and `.code` work exactly as in the worker). The same wire form
 * carries errors over BroadcastChannel.
 */
import { AnamnesisError, ERROR_CODES, type ErrorCode } from '@anamnesis/errors';

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

/**
 * A worker method's answer as plain data: its value, or the error it threw in wire form. The
 * worker never lets an error escape to Comlink, so no global Comlink handler is needed and an
 * app's own Comlink workers are left alone.
 */
export type Reply<T> = { ok: true; value: T } | { ok: false; error: WireError };

/** Runs `work` and returns its outcome as a {@link Reply}. */
export async function reply<T>(work: () => Promise<T>): Promise<Reply<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (e) {
    return { ok: false, error: toWireError(e) };
  }
}

/** The value of a {@link Reply}, or its error thrown again (an `AnamnesisError` keeps its code). */
export function unwrap<T>(answer: Reply<T>): T {
  if (answer.ok) return answer.value;
  throw fromWireError(answer.error);
}
