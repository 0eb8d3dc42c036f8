/** `useRemember`: `remember` with pending and error state for a form. */
import type { RememberInput } from '@anamnesis/client';
import { AnamnesisError } from '@anamnesis/errors';
import { useCallback, useEffect, useRef, useState } from 'react';

import { useMemory } from './provider.ts';
import { toAnamnesisError } from './recall.ts';

/** What {@link useRemember} returns. */
export interface RememberState {
  /**
   * Stores a memory in the provider's store and resolves with its id (an existing memory's id for
   * a text already remembered). Rejects as `memory.remember` does, and with `CLOSED` when called
   * before the store exists (first render) or on the server; the failure is also kept in `error`.
   */
  remember: (input: RememberInput) => Promise<string>;
  /** True while at least one `remember` call is in flight (concurrent calls are counted). */
  pending: boolean;
  /** The last failure of a `remember` call, until `reset` (a later success does not clear it). */
  error: AnamnesisError | undefined;
  /** Clears `error`. */
  reset: () => void;
}

/** `remember` on the provider's store, with `pending` and `error` for the component to show. */
export function useRemember(): RememberState {
  const memory = useMemory();
  const [inFlight, setInFlight] = useState(0);
  const [error, setError] = useState<AnamnesisError | undefined>(undefined);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const remember = useCallback(
    async (input: RememberInput): Promise<string> => {
      if (!memory) {
        const e = new AnamnesisError(
          'CLOSED',
          'remember: the store is not open yet (first render, or on the server)',
        );
        setError(e);
        throw e;
      }
      setInFlight((n) => n + 1);
      try {
        return await memory.remember(input);
      } catch (e) {
        const failure = toAnamnesisError(e);
        if (mounted.current) setError(failure);
        throw failure;
      } finally {
        if (mounted.current) setInFlight((n) => n - 1);
      }
    },
    [memory],
  );
  const reset = useCallback(() => setError(undefined), []);
  return { remember, pending: inFlight > 0, error, reset };
}
