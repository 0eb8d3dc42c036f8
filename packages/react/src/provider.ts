/**
 * `MemoryProvider` and `useMemory`: one browser store per provider, opened in an effect (so never
 * on the server) and closed on unmount, StrictMode's mount → unmount → mount included.
 */
import { connectMemory, type MemoryClient, type OpenMemoryOptions } from '@anamnesis/client';
import { AnamnesisError } from '@anamnesis/errors';
import {
  createContext,
  createElement,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';

/** What a provider shares: its client, once there is one. */
interface MemoryContextValue {
  memory: MemoryClient | undefined;
}

const MemoryContext = createContext<MemoryContextValue | null>(null);

/** Props of {@link MemoryProvider}: give `memory`, or `options` for the provider to open one. */
export interface MemoryProviderProps {
  /**
   * A client the app made (`connectMemory`/`openMemory`): the provider shares it as it is and never
   * closes it. Takes precedence over `options`.
   */
  memory?: MemoryClient;
  /**
   * Options of the store the provider opens with `connectMemory` in an effect after its first
   * render in the browser (never on the server), and closes when it unmounts. Read once, when the
   * provider mounts: to open another store, give the provider another `key`. Default `{}` (the
   * store `'anamnesis'`, assets under `/models/` and `/ort/`).
   */
  options?: OpenMemoryOptions;
  /**
   * What opens the store from `options`. Default `connectMemory` from `@anamnesis/client`; a test
   * may pass its own (a fake, or a client in a simulated tab).
   */
  connect?: (options: OpenMemoryOptions) => MemoryClient;
  /** What may use the memory (`useMemory`, `useRecall`, `useRemember`). */
  children?: ReactNode;
}

/** Holds the store one provider opened, across StrictMode's simulated unmount and remount. */
interface Held {
  memory: MemoryClient;
  /** The deferred close of an unmount, cancelled by a remount in the same tick. */
  closing: ReturnType<typeof setTimeout> | undefined;
}

/** True where a store can be opened: a browser page (a `window` and `Worker`). */
function inBrowser(): boolean {
  return typeof window !== 'undefined' && typeof Worker === 'function';
}

/**
 * Shares one store with the components below it (`useMemory`, `useRecall`, `useRemember`).
 *
 * With `options`, the provider opens the store once, in an effect: nothing is opened while
 * rendering, so on the server (`renderToString`) there is no worker and the hooks return their
 * idle state. Under `<StrictMode>`, whose development build unmounts and remounts every effect
 * once, the store is not opened twice: the close of an unmount waits a tick (0 ms) and a remount
 * within it keeps the same client. On a real unmount the client is closed.
 */
export function MemoryProvider(props: MemoryProviderProps): ReactNode {
  const { memory: given, options, connect, children } = props;
  const [opened, setOpened] = useState<MemoryClient | undefined>(undefined);
  const held = useRef<Held | undefined>(undefined);
  // Read once, at mount (see `options`).
  const first = useRef({ options, connect });

  useEffect(() => {
    if (given) return;
    const open = first.current.connect;
    if (!open && !inBrowser()) return;
    let h = held.current;
    if (h && h.closing !== undefined) {
      clearTimeout(h.closing);
      h.closing = undefined;
    } else if (!h) {
      h = held.current = {
        memory: (open ?? connectMemory)(first.current.options ?? {}),
        closing: undefined,
      };
    }
    setOpened(h.memory);
    const mine = h;
    return () => {
      mine.closing = setTimeout(() => {
        mine.closing = undefined;
        if (held.current === mine) held.current = undefined;
        void mine.memory.close().catch(() => undefined);
      }, 0);
    };
  }, [given]);

  const memory = given ?? opened;
  const value = useMemo(() => ({ memory }), [memory]);
  return createElement(MemoryContext.Provider, { value }, children);
}

/**
 * The client of the nearest {@link MemoryProvider}: `undefined` before the provider's effect has
 * opened it (the first render) and on the server. Throws `INVALID_INPUT` outside a provider.
 */
export function useMemory(): MemoryClient | undefined {
  const value = useContext(MemoryContext);
  if (!value)
    throw new AnamnesisError(
      'INVALID_INPUT',
      'useMemory, useRecall and useRemember must be used inside <MemoryProvider>',
    );
  return value.memory;
}
