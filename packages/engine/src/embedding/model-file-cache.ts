/**
 * A static model's files kept in OPFS, in a dedicated worker, by their SHA-256.
 *
 * In Chromium the model's files (~5.5 MB for the default model) come from the HTTP cache in about
 * 300 ms at each open, and the store's own OPFS calls wait behind them; read through sync access
 * handles the same bytes take ~35 ms. The model root's manifest (`manifest.json`, written with the
 * model: each file's size and SHA-256) says which bytes a file must have: a kept copy is used when
 * its size and digest match the manifest's, and a file fetched is kept when it matches it. So a
 * copy is never older or other than what the app serves, and a torn or damaged one is fetched
 * again. Anything unavailable (no manifest, no sync access handles, no `crypto.subtle`, a file
 * another worker holds) means a plain fetch, as without the cache. Copies no manifest names any
 * more (an older model) are deleted once the model is read.
 */
import { bytesToHex } from '@noble/hashes/utils.js';

/** The OPFS folder of the kept copies (one file per SHA-256, hex). */
const MODEL_CACHE_DIR = '.anamnesis-models';

/** A file of a model root's manifest. */
interface ManifestEntry {
  bytes: number;
  sha256: string;
}

/** The part of a worker's `FileSystemSyncAccessHandle` used here. */
interface SyncAccessHandle {
  getSize(): number;
  read(into: Uint8Array, options: { at: number }): number;
  write(data: Uint8Array, options: { at: number }): number;
  truncate(size: number): void;
  flush(): void;
  close(): void;
}

type FileHandle = FileSystemFileHandle & {
  createSyncAccessHandle(): Promise<SyncAccessHandle>;
};

/** The model files of one model root, read through the kept copies (see the module comment). */
export interface ModelFileCache {
  /** `file` of `model` (relative to the model's folder): the kept copy, or `fetch()`'s bytes. */
  read(model: string, file: string, fetch: () => Promise<Uint8Array>): Promise<Uint8Array>;
  /** Deletes the kept copies that the manifest does not name. Never fails. */
  prune(): Promise<void>;
}

/** Hex SHA-256 of `bytes` (WebCrypto: off the worker's thread). */
async function sha256(bytes: Uint8Array): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource)));
}

/** Whether this global scope can keep files: a dedicated worker with OPFS sync access handles and WebCrypto. */
function canKeep(): boolean {
  const handle = (globalThis as { FileSystemFileHandle?: { prototype: object } })
    .FileSystemFileHandle;
  return (
    handle !== undefined &&
    'createSyncAccessHandle' in handle.prototype &&
    typeof navigator !== 'undefined' &&
    typeof navigator.storage?.getDirectory === 'function' &&
    typeof crypto !== 'undefined' &&
    crypto.subtle !== undefined
  );
}

/** The manifest's files, or undefined when it cannot be read or is not one. */
async function readManifest(rootUrl: URL): Promise<Map<string, ManifestEntry> | undefined> {
  try {
    const response = await fetch(new URL('manifest.json', rootUrl));
    if (!response.ok) return undefined;
    const files = ((await response.json()) as { files?: unknown }).files;
    if (files === null || typeof files !== 'object') return undefined;
    const out = new Map<string, ManifestEntry>();
    for (const [path, entry] of Object.entries(files as Record<string, unknown>)) {
      const { bytes, sha256: digest } = (entry ?? {}) as Partial<ManifestEntry>;
      if (Number.isSafeInteger(bytes) && bytes! >= 0 && /^[0-9a-f]{64}$/.test(digest ?? ''))
        out.set(path, { bytes: bytes!, sha256: digest! });
    }
    return out;
  } catch {
    return undefined;
  }
}

/**
 * How long, in ms, a kept copy's access handle is waited for before the file is fetched instead.
 * Chromium can leave `createSyncAccessHandle()` pending (neither granted nor refused) when the
 * worker of a page reloaded a moment before held the file: the model then never loaded.
 */
const HANDLE_WAIT_MS = 2000;

/** The file's access handle, or undefined when it is not given within {@link HANDLE_WAIT_MS}. */
async function accessHandle(handle: FileHandle): Promise<SyncAccessHandle | undefined> {
  const pending = handle.createSyncAccessHandle();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), HANDLE_WAIT_MS);
  });
  const got = await Promise.race([pending, late]).finally(() => clearTimeout(timer));
  // given after all, once nobody waits: closed, so that it holds nothing
  if (got === undefined)
    void pending.then(
      (a) => a.close(),
      () => undefined,
    );
  return got;
}

/** The kept copy of `entry`, if it has its size and digest. */
async function readKept(
  dir: FileSystemDirectoryHandle,
  entry: ManifestEntry,
): Promise<Uint8Array | undefined> {
  let access: SyncAccessHandle | undefined;
  try {
    const handle = (await dir.getFileHandle(entry.sha256)) as FileHandle;
    access = await accessHandle(handle);
    if (!access || access.getSize() !== entry.bytes) return undefined;
    const bytes = new Uint8Array(entry.bytes);
    if (access.read(bytes, { at: 0 }) !== entry.bytes) return undefined;
    access.close();
    access = undefined;
    return (await sha256(bytes)) === entry.sha256 ? bytes : undefined;
  } catch {
    return undefined; // absent, held by another worker, or unreadable: fetched instead
  } finally {
    access?.close();
  }
}

/** Keeps `bytes` as the copy of `entry` (they were checked against it). Never fails. */
async function keep(
  dir: FileSystemDirectoryHandle,
  entry: ManifestEntry,
  bytes: Uint8Array,
): Promise<void> {
  let access: SyncAccessHandle | undefined;
  try {
    const handle = (await dir.getFileHandle(entry.sha256, { create: true })) as FileHandle;
    access = await accessHandle(handle);
    if (!access) return;
    access.truncate(0);
    access.write(bytes, { at: 0 });
    access.flush();
  } catch {
    // no room, or another worker is writing the same copy: it stays a fetch
  } finally {
    access?.close();
  }
}

/**
 * The cache for the model root at `rootUrl` (the folder `localModelPath` names), or `undefined`
 * where files cannot be kept here or the root has no readable manifest.
 */
export async function modelFileCache(rootUrl: URL): Promise<ModelFileCache | undefined> {
  if (!canKeep()) return undefined;
  const manifest = await readManifest(rootUrl);
  if (!manifest) return undefined;
  let dir: FileSystemDirectoryHandle;
  try {
    dir = await (
      await navigator.storage.getDirectory()
    ).getDirectoryHandle(MODEL_CACHE_DIR, {
      create: true,
    });
  } catch {
    return undefined;
  }
  return {
    async read(model, file, fetchFile) {
      const entry = manifest.get(`${model}/${file}`);
      if (!entry) return fetchFile();
      const kept = await readKept(dir, entry);
      if (kept) return kept;
      const fetched = await fetchFile();
      if (fetched.length === entry.bytes && (await sha256(fetched)) === entry.sha256)
        await keep(dir, entry, fetched);
      return fetched;
    },
    async prune() {
      const named = new Set([...manifest.values()].map((e) => e.sha256));
      try {
        const names: string[] = [];
        for await (const name of (
          dir as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }
        ).keys())
          if (!named.has(name)) names.push(name);
        for (const name of names) await dir.removeEntry(name).catch(() => undefined);
      } catch {
        // a folder that cannot be listed keeps its files
      }
    },
  };
}
