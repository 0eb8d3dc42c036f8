/**
 * `@anamnesis/react`: anamnesis in React. `MemoryProvider` opens the browser store once (never on
 * the server, once under StrictMode) and shares it; `useMemory` gives the client, `useRecall` a
 * live, debounced recall of what a person types, `useRemember` `remember` with pending and error
 * state.
 */
export { MemoryProvider, useMemory, type MemoryProviderProps } from './provider.ts';
export { useRecall, type RecallState, type UseRecallSettings } from './recall.ts';
export { useRemember, type RememberState } from './remember.ts';
