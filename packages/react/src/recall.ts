/** `useRecall`: a live recall of what a person types, debounced, following the store's changes. */
import type { LiveRecall, RecallOptions, RecallResult } from '@anamnesis/client';
import { AnamnesisError, isAnamnesisError } from '@anamnesis/errors';
import { useEffect, useMemo, useRef, useState } from 'react';

import { optionsKey as keyOf } from './options-key.ts';
import { useMemory } from './provider.ts';

/** How {@link useRecall} runs. */
export interface UseRecallSettings {
  /**
   * Milliseconds the query must stay unchanged before it is recalled (each keystroke restarts the
   * wait), so typing a word costs one recall, not one per letter. The first query is recalled at
   * once; 0 recalls every change. Default 150.
   */
  debounceMs?: number;
}

/** What {@link useRecall} returns. */
export interface RecallState {
  /** The latest answer for the latest recalled query, best first; `[]` for an empty query. */
  results: RecallResult[];
  /** True while the typed query waits for its debounce or its answer. */
  pending: boolean;
  /** The last recall's failure (cleared by the next answer). */
  error: AnamnesisError | undefined;
  /** True when `results` were found without the embedding model (still loading, or failed). */
  partial: boolean;
}

/** Any thrown value as an `AnamnesisError` (`INTERNAL` for what is not one). */
export function toAnamnesisError(e: unknown): AnamnesisError {
  if (isAnamnesisError(e)) return e;
  return new AnamnesisError('INTERNAL', e instanceof Error ? e.message : String(e), { cause: e });
}

const EMPTY: RecallResult[] = [];

/**
 * Recalls `query` from the provider's store and keeps the answer current: one live recall
 * (`memory.live`) runs while the query is not blank, `set` to each new query once it has stayed
 * unchanged for `debounceMs`, and recalled again after every change any tab commits. A blank query
 * gives `[]` without a recall. `options` are compared by value (as JSON, `Date`s by their time),
 * so an object written inline does not start a new recall on each render; recall is given the
 * options themselves (a `filter.after` `Date` stays a `Date`). What is recalled is a query being typed:
 * `typing` is true unless `options` say otherwise, so the word the query ends in also finds the
 * words it begins ("panc" finds "pancake"). On the server, and before the store exists, the state
 * is idle: no results, not pending.
 */
export function useRecall(
  query: string,
  options?: RecallOptions,
  settings: UseRecallSettings = {},
): RecallState {
  const memory = useMemory();
  const debounceMs = Math.max(0, settings.debounceMs ?? 150);
  const merged = { typing: true, ...options };
  const optionsKey = keyOf(merged);
  // The options of the first render with this key: recall gets the object itself (a `Date` stays
  // a `Date`); the key only tells when they changed.
  const recallOptions: RecallOptions = useMemo(() => merged, [optionsKey]);
  const [debounced, setDebounced] = useState(query);
  const [answer, setAnswer] = useState<{
    query: string;
    optionsKey: string;
    results: RecallResult[];
    error: AnamnesisError | undefined;
  }>();
  const live = useRef<LiveRecall | undefined>(undefined);
  /** The query and options last given to the live recall (what a failure is about). */
  const asked = useRef({ query: debounced, optionsKey });

  useEffect(() => {
    if (query === debounced) return;
    if (debounceMs === 0) {
      setDebounced(query);
      return;
    }
    const timer = setTimeout(() => setDebounced(query), debounceMs);
    return () => clearTimeout(timer);
  }, [query, debounced, debounceMs]);

  // One live recall per client: closed when the client goes (or the component unmounts).
  useEffect(
    () => () => {
      live.current?.close();
      live.current = undefined;
    },
    [memory],
  );

  useEffect(() => {
    if (!memory) return;
    if (debounced.trim() === '') {
      // No recall for a blank query: stop following the store until there is one.
      live.current?.close();
      live.current = undefined;
      setAnswer(undefined);
      return;
    }
    asked.current = { query: debounced, optionsKey };
    if (live.current) {
      live.current.set(debounced, recallOptions);
      return;
    }
    live.current = memory.live(
      debounced,
      recallOptions,
      (results, update) =>
        setAnswer({
          query: update.query,
          optionsKey: keyOf(update.options),
          results,
          error: undefined,
        }),
      (e) =>
        setAnswer((previous) => ({
          ...asked.current,
          results: previous?.results ?? EMPTY,
          error: toAnamnesisError(e),
        })),
    );
  }, [memory, debounced, optionsKey, recallOptions]);

  const blank = query.trim() === '';
  if (blank || !memory) return { results: EMPTY, pending: false, error: undefined, partial: false };
  const answered =
    answer !== undefined && answer.query === debounced && answer.optionsKey === optionsKey;
  const results = answer?.results ?? EMPTY;
  return {
    results,
    pending: query !== debounced || !answered,
    error: answer?.error,
    partial: results.some((r) => r.partial === true),
  };
}
