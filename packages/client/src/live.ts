/**
 * Live recall: a recall that runs again whenever the store changes, in any tab of the origin
 * (`MemoryClient.live`), built on the client's change events (`MemoryClient.subscribe`).
 */

import type { ChangeKind, RecallOptions, RecallResult } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';

/**
 * One committed change of the store, as a tab hears it: the engine's change (`StoreChange`: the
 * kind of write, the ids it changed, the owner's generation after it), or `'owner'`: the store
 * has a new owner tab (its generations count from that owner's open; what was written while
 * ownership moved may not have been heard one by one, so what depends on the store should be read
 * again).
 */
export interface MemoryChange {
  /** What the change did; `'owner'`: another tab became the store's owner (re-run what depends on it). */
  kind: ChangeKind | 'owner';
  /** The memories the change added, updated, deleted, linked or marked used; empty for `'model'` and `'owner'`. */
  ids: string[];
  /** The owner's generation after the change (0 for `'owner'`). */
  generation: number;
}

/** What a live recall delivers with each result list. */
export interface LiveUpdate {
  /** The query and options these results answer. */
  query: string;
  /** The options of that recall. */
  options: RecallOptions;
  /** Why this run happened: the first run, a new query (`set`), a change of the store, or `refresh`. */
  cause: 'start' | 'query' | 'change' | 'refresh';
  /** The change that caused the run (the latest, when several were coalesced into it). */
  change?: MemoryChange;
  /** When the recall was asked for (`performance.now()`, ms): it reflects what came before. */
  startedAt: number;
}

/** A recall that follows the store (see `MemoryClient.live`). */
export interface LiveRecall {
  /** Recall another query (or with other options) from now on; answers for the old one are dropped. */
  set(query: string, options?: RecallOptions): void;
  /** Runs the recall again now (as a change of the store would). */
  refresh(): void;
  /** Stops: no run starts, and no answer is delivered, after this returns. Idempotent. */
  close(): void;
}

/** What {@link liveRecall} needs of a memory client. */
export interface LiveSource {
  /** Runs one recall. */
  recall(query: string, options?: RecallOptions): Promise<RecallResult[]>;
  /** Calls `listener` after every committed change of the store; returns the unsubscribe. */
  subscribe(listener: (change: MemoryChange) => void): () => void;
}

/**
 * Runs `query` now and again after every change of the store, delivering each answer to
 * `onResults`. At most one recall is in flight: changes (and `set`/`refresh`) that come while one
 * runs are coalesced into one more run when it ends, so a burst of writes costs two recalls, not
 * one per write, and the last answer delivered always reflects every change heard before its run
 * started. The answer of a run during which a change was heard is dropped for the next run's
 * (unless the answer before it was dropped too, so a stream of changes never starves the list).
 * Answers are delivered in the order their runs started, never one for a query replaced by `set`
 * since, and none after `close`. A recall that fails goes to `onError` (default:
 * `console.error`) and the live recall goes on.
 */
export function liveRecall(
  source: LiveSource,
  query: string,
  options: RecallOptions | undefined,
  onResults: (results: RecallResult[], update: LiveUpdate) => void,
  onError: (error: unknown) => void = (e) => console.error('anamnesis: a live recall failed', e),
): LiveRecall {
  if (typeof onResults !== 'function')
    throw new AnamnesisError('INVALID_INPUT', 'live: onResults must be a function');
  let current = { query, options: { ...options } };
  /** Bumped by `set`: an answer for an older query is dropped. */
  let version = 0;
  let closed = false;
  let running = false;
  /** A run is due once the one in flight ends, and why. */
  let due: { cause: LiveUpdate['cause']; change?: MemoryChange } | undefined = { cause: 'start' };
  /** A change was heard while the recall in flight ran: its answer may predate it. */
  let outdated = false;
  /** The last answer was dropped as outdated (the next one is delivered, whatever it is). */
  let dropped = false;

  const pump = (): void => {
    if (closed || running || !due) return;
    const { cause, change } = due;
    due = undefined;
    running = true;
    outdated = false;
    const asked = current;
    const askedVersion = version;
    const startedAt = performance.now();
    source
      .recall(asked.query, asked.options)
      .then(
        (results) => {
          if (closed || askedVersion !== version) return;
          // An answer that may predate a change heard meanwhile is replaced by the run due for it,
          // unless the one before was dropped too: under a stream of changes every other answer
          // is shown, each at most one change behind.
          if (outdated && due && !dropped) {
            dropped = true;
            return;
          }
          dropped = false;
          onResults(results, {
            query: asked.query,
            options: asked.options,
            cause,
            ...(change ? { change } : {}),
            startedAt,
          });
        },
        (e: unknown) => {
          if (!closed && askedVersion === version) onError(e);
        },
      )
      .finally(() => {
        running = false;
        pump();
      });
  };
  const request = (cause: LiveUpdate['cause'], change?: MemoryChange): void => {
    if (closed) return;
    if (running && cause === 'change') outdated = true;
    // A new query outranks a change (its answer includes the change); a change keeps the latest.
    if (due?.cause === 'query' || due?.cause === 'start')
      due = { ...due, ...(change ? { change } : {}) };
    else due = { cause, ...(change ? { change } : {}) };
    pump();
  };
  const unsubscribe = source.subscribe((change) => request('change', change));
  pump();
  return {
    set(nextQuery, nextOptions) {
      if (closed) return;
      current = { query: nextQuery, options: { ...nextOptions } };
      version++;
      request('query');
    },
    refresh() {
      request('refresh');
    },
    close() {
      if (closed) return;
      closed = true;
      due = undefined;
      unsubscribe();
    },
  };
}
