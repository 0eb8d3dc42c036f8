/**
 * Locking the notes with a passphrase: the notes then live in an encrypted store (every page of
 * it encrypted in OPFS, the key derived from the passphrase in the worker; see the client's
 * `encryption` option), and the app asks for the passphrase at every start. A plain store cannot
 * be encrypted in place, so locking moves the notes into a new encrypted store and deletes the
 * plain one; removing the lock moves them back. Only the fact that the notes are locked is kept
 * (in localStorage, read before the store opens); the passphrase is never stored.
 */
import {
  deleteMemory,
  openMemory,
  type MemoryClient,
  type OpenMemoryOptions,
} from '@anamnesis/client';

/** The store of the notes while they are not locked. */
export const PLAIN_STORE = 'notes';
/** The store of the notes while they are locked (encrypted). */
export const LOCKED_STORE = 'notes-locked';

const KEY = 'anamnesis-notes:locked';

/** Shortest passphrase the app accepts for a new lock. */
export const MIN_PASSPHRASE = 10;

/** Why a lock or an unlock did not happen, in words for the person (nothing changed). */
export class LockProblem extends Error {}

/** Whether the notes are locked (they live in {@link LOCKED_STORE}). */
export function isLocked(storage: Pick<Storage, 'getItem'> | undefined): boolean {
  return storage?.getItem(KEY) === '1';
}

/** Records whether the notes are locked: which store the app opens from now on. */
export function setLocked(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  locked: boolean,
): void {
  if (locked) storage?.setItem(KEY, '1');
  else storage?.removeItem(KEY);
}

/** What is wrong with a new passphrase typed twice, or undefined when it will do. */
export function passphraseProblem(first: string, second: string): string | undefined {
  if (first.length < MIN_PASSPHRASE)
    return `a passphrase needs at least ${MIN_PASSPHRASE} characters`;
  if (first !== second) return 'the two passphrases differ';
  return undefined;
}

/**
 * Moves every note (with its links, usage and vectors) from the open store `from` into a new store
 * opened with `to` (encrypted or not), then closes both. The new store is emptied first (what an
 * interrupted move may have left), and is deleted again when it does not end up with every note,
 * so a failure leaves `from` as it was. The caller then switches to the new store and deletes the
 * old one: until it does, the old one is the notes' store.
 */
export async function moveNotes(
  from: MemoryClient,
  to: OpenMemoryOptions & { name: string },
): Promise<number> {
  const jsonl = await from.export({ vectors: true });
  const count = (await from.stats()).memories;
  await from.close();
  await deleteMemory({ name: to.name });
  const next = await openMemory(to);
  let moved: number;
  try {
    await next.import(jsonl);
    moved = (await next.stats()).memories;
  } finally {
    await next.close();
  }
  if (moved !== count) {
    await deleteMemory({ name: to.name });
    throw new LockProblem(`only ${moved} of ${count} notes reached the new store; nothing changed`);
  }
  return moved;
}

/** The channel the app's tabs answer on, so that a lock can tell whether another tab is open. */
const TABS_CHANNEL = 'anamnesis-notes:tabs';
/** This page, on that channel (its own question reaches its own answering channel too). */
const THIS_TAB = crypto.randomUUID();

/**
 * Answers other tabs' "who is open?" for as long as this page lives (a tab that locks or unlocks
 * asks first; see {@link otherTabsOpen}).
 */
export function answerTabs(): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(TABS_CHANNEL);
  channel.onmessage = (e: MessageEvent) => {
    const data = e.data as { type?: unknown; from?: unknown } | null;
    if (data?.type === 'who' && data.from !== THIS_TAB) channel.postMessage({ type: 'here' });
  };
}

/**
 * Whether another tab of the app answers within `waitMs` (ms). A lock or an unlock moves the notes
 * to another store and deletes the old one: a tab still open on the old store would keep writing
 * into it (its owner when this one closes it), and those notes would be lost.
 */
export async function otherTabsOpen(waitMs = 300): Promise<boolean> {
  if (typeof BroadcastChannel === 'undefined') return false;
  const channel = new BroadcastChannel(TABS_CHANNEL);
  try {
    return await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), waitMs);
      channel.onmessage = (e: MessageEvent) => {
        if ((e.data as { type?: unknown } | null)?.type !== 'here') return;
        clearTimeout(timer);
        resolve(true);
      };
      channel.postMessage({ type: 'who', from: THIS_TAB });
    });
  } finally {
    channel.close();
  }
}
