/** UI settings through idb-keyval, on an in-memory custom store (IndexedDB itself: see e2e). */
import type { UseStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';

import { clearSettings, loadSettings, saveSettings } from '../src/settings.ts';

/** An idb-keyval custom store over a Map, with IDBRequest-like answers. */
function memoryStore(): UseStore {
  const data = new Map<IDBValidKey, unknown>();
  const request = (result: unknown) => {
    const r: { result: unknown; onsuccess?: () => void; oncomplete?: () => void } = { result };
    setTimeout(() => {
      r.onsuccess?.call(r);
      r.oncomplete?.call(r);
    });
    return r;
  };
  const store = {
    get: (key: IDBValidKey) => request(structuredClone(data.get(key))),
    put: (value: unknown, key: IDBValidKey) => (
      data.set(key, structuredClone(value)),
      request(key)
    ),
    delete: (key: IDBValidKey) => (data.delete(key), request(undefined)),
    get transaction() {
      return request(undefined);
    },
  };
  return ((_mode: IDBTransactionMode, callback: (s: IDBObjectStore) => unknown) =>
    Promise.resolve(callback(store as unknown as IDBObjectStore))) as UseStore;
}

describe('settings', () => {
  it('merges, removes keys set to undefined, keeps stores apart, and clears', async () => {
    const store = memoryStore();
    expect(await loadSettings({ store })).toEqual({});
    expect(await saveSettings({ device: 'webgpu', profile: 'memsense' }, { store })).toEqual({
      device: 'webgpu',
      profile: 'memsense',
    });
    expect(await saveSettings({ profile: undefined, theme: 'dark' }, { store })).toEqual({
      device: 'webgpu',
      theme: 'dark',
    });
    expect(await loadSettings({ store })).toEqual({ device: 'webgpu', theme: 'dark' });
    await saveSettings({ model: 'x/y' }, { store, name: 'other' });
    expect(await loadSettings({ store, name: 'other' })).toEqual({ model: 'x/y' });
    await clearSettings({ store });
    expect(await loadSettings({ store })).toEqual({});
    expect(await loadSettings({ store, name: 'other' })).toEqual({ model: 'x/y' });
  });
});
