/**
 * Settings that belong to the UI (the chosen model, the device preference, the recall profile),
 * kept in IndexedDB through idb-keyval, apart from the memory store: they survive a store being
 * wiped or rebuilt, and reading them needs no worker. One record per store name.
 */
import { createStore, del, get, update, type UseStore } from 'idb-keyval';

import type { ClientDevice } from './api.ts';

/** What the helpers keep. Apps may add their own keys (structured-cloneable values). */
export interface UiSettings {
  /** The embedding model id chosen in the UI. */
  model?: string;
  /** The device preference for the model. */
  device?: ClientDevice;
  /** The recall profile chosen in the UI (a profile name). */
  profile?: string;
  [key: string]: unknown;
}

/** Where the settings live: an idb-keyval store (IndexedDB `anamnesis-settings`, object store `settings`). */
export interface SettingsOptions {
  /** Store name the settings belong to. Default `'anamnesis'`. */
  name?: string;
  /** An idb-keyval custom store (tests, or another database). Default: `anamnesis-settings`/`settings`. */
  store?: UseStore;
}

let defaultStore: UseStore | undefined;

function storeOf(options: SettingsOptions): UseStore {
  if (options.store) return options.store;
  defaultStore ??= createStore('anamnesis-settings', 'settings');
  return defaultStore;
}

/** The saved settings of a store (`{}` when none were saved). */
export async function loadSettings(options: SettingsOptions = {}): Promise<UiSettings> {
  return (await get<UiSettings>(options.name ?? 'anamnesis', storeOf(options))) ?? {};
}

/**
 * Merges `patch` into the saved settings in one IndexedDB transaction (a key set to `undefined`
 * is removed) and returns the result.
 */
export async function saveSettings(
  patch: Partial<UiSettings>,
  options: SettingsOptions = {},
): Promise<UiSettings> {
  let next: UiSettings = {};
  await update<UiSettings>(
    options.name ?? 'anamnesis',
    (old) => {
      next = Object.fromEntries(
        Object.entries({ ...old, ...patch }).filter(([, value]) => value !== undefined),
      );
      return next;
    },
    storeOf(options),
  );
  return next;
}

/** Removes the saved settings of a store. */
export async function clearSettings(options: SettingsOptions = {}): Promise<void> {
  await del(options.name ?? 'anamnesis', storeOf(options));
}
