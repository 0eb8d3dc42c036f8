/**
 * A static model's files kept in OPFS, in a dedicated worker, by their SHA-256.
 *
 * In Chromium the model's files (~5.5 MB for the default model) come from the HTTP cache in about
 * 300 ms at each open, and the store's own OPFS calls wait behind them; read through sync access
 * handles the same bytes take ~35 ms. The model root's manifest (`manifest.json`, written with the
 * model: each file's size and SHA-256) says which bytes a file must have: a file fetched is kept
 * when it matches it, and a kept copy is used when it still holds what was kept. So a copy is
 * never older or other than what the app serves, and a torn or damaged one is fetched again.
 * Anything unavailable (no manifest, no sync access handles, no `crypto.subtle`, a file another
 * worker holds) means a plain fetch, as without the cache. Copies no manifest names any more (an
 * older model) are deleted once the model is read.
 *
 * A copy ends with a trailer ({@link TRAILER_BYTES}: a mark, the length and a checksum of the
 * bytes before it), checked at each read instead of the SHA-256: Chromium's WebCrypto digests on
 * the worker's own thread, 30–38 ms for the default model's files at every open on a 2-core
 * machine, where the checksum takes a few. The SHA-256 is checked once, before a file is kept.
 * The same folder keeps what is derived from a model file (see {@link ModelFileCache.readDerived}),
 * under the file's digest and a name for what was derived.
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
  /**
   * What was kept as `kind` (a name of letters, digits and `-`) derived from `file` of `model` as
   * the manifest names it, if it is still whole; `undefined` otherwise (never kept, another
   * version of the file, torn, damaged, or no manifest entry).
   */
  readDerived(model: string, file: string, kind: string): Promise<Uint8Array | undefined>;
  /** Keeps `bytes` as `kind` derived from `file` of `model` (see `readDerived`). Never fails. */
  keepDerived(model: string, file: string, kind: string, bytes: Uint8Array): Promise<void>;
  /** Deletes the kept copies, and what was derived from them, that the manifest does not name. Never fails. */
  prune(): Promise<void>;
}

/** Bytes after a kept copy: a mark (4), the length of the copy (4) and its checksum (16). */
const TRAILER_BYTES = 24;
/** The trailer's first four bytes, "akc1" (a kept copy, trailer format 1). */
const TRAILER_MARK = 0x31636b61;

/**
 * A 128-bit checksum of `bytes`: four lanes of multiply-rotate over its 32-bit words (a word
 * changed changes its lane's state from there on: each step is a bijection), then the bytes
 * after the last whole 16. Not a cryptographic digest: it finds a torn or damaged copy, which
 * is what it is for (the copy's SHA-256 was checked when it was kept).
 */
function checksum(bytes: Uint8Array): Int32Array {
  // an aligned view where the bytes are aligned (a fresh read is), else a copy
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, aligned.length >>> 2);
  const whole = words.length & ~3;
  let a = 0x243f6a88 ^ bytes.length;
  let b = 0x85a308d3 | 0;
  let c = 0x13198a2e;
  let d = 0x03707344;
  for (let i = 0; i < whole; i += 4) {
    a = Math.imul(a ^ words[i]!, 0x85ebca77);
    a = (a << 13) | (a >>> 19);
    b = Math.imul(b ^ words[i + 1]!, 0x85ebca77);
    b = (b << 13) | (b >>> 19);
    c = Math.imul(c ^ words[i + 2]!, 0x85ebca77);
    c = (c << 13) | (c >>> 19);
    d = Math.imul(d ^ words[i + 3]!, 0x85ebca77);
    d = (d << 13) | (d >>> 19);
  }
  for (let i = whole * 4; i < bytes.length; i++) {
    a = Math.imul(a ^ bytes[i]!, 0xc2b2ae3d);
    a = (a << 17) | (a >>> 15);
  }
  return Int32Array.of(a, b, c, d);
}

/** The trailer kept after `bytes`. */
function trailerOf(bytes: Uint8Array): Uint8Array {
  const trailer = new Uint8Array(TRAILER_BYTES);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, TRAILER_MARK, true);
  view.setUint32(4, bytes.length, true);
  checksum(bytes).forEach((lane, i) => view.setInt32(8 + 4 * i, lane, true));
  return trailer;
}

/** Whether `trailer` is the one kept after `bytes`. */
function trailerFits(bytes: Uint8Array, trailer: Uint8Array): boolean {
  const expected = trailerOf(bytes);
  return trailer.length === TRAILER_BYTES && trailer.every((b, i) => b === expected[i]);
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

/**
 * The bytes kept as `name`, if the file holds them whole: `bytes` of them (any length when
 * undefined) and the trailer that fits them.
 */
async function readKept(
  dir: FileSystemDirectoryHandle,
  name: string,
  bytes?: number,
): Promise<Uint8Array | undefined> {
  let access: SyncAccessHandle | undefined;
  try {
    const handle = (await dir.getFileHandle(name)) as FileHandle;
    access = await accessHandle(handle);
    if (!access) return undefined;
    const size = access.getSize() - TRAILER_BYTES;
    if (size < 0 || (bytes !== undefined && size !== bytes)) return undefined;
    const kept = new Uint8Array(size);
    const trailer = new Uint8Array(TRAILER_BYTES);
    if (access.read(kept, { at: 0 }) !== size) return undefined;
    if (access.read(trailer, { at: size }) !== TRAILER_BYTES) return undefined;
    return trailerFits(kept, trailer) ? kept : undefined;
  } catch {
    return undefined; // absent, held by another worker, or unreadable: fetched instead
  } finally {
    access?.close();
  }
}

/** Keeps `bytes` as `name`, with their trailer. Never fails. */
async function keep(
  dir: FileSystemDirectoryHandle,
  name: string,
  bytes: Uint8Array,
): Promise<void> {
  let access: SyncAccessHandle | undefined;
  try {
    const handle = (await dir.getFileHandle(name, { create: true })) as FileHandle;
    access = await accessHandle(handle);
    if (!access) return;
    access.truncate(0);
    access.write(bytes, { at: 0 });
    access.write(trailerOf(bytes), { at: bytes.length });
    access.flush();
  } catch {
    // no room, or another worker is writing the same copy: it stays a fetch
  } finally {
    access?.close();
  }
}

/** The name of `kind` derived from the file of digest `sha256`. */
function derivedName(sha256: string, kind: string): string | undefined {
  return /^[a-z0-9-]+$/.test(kind) ? `${sha256}.${kind}` : undefined;
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
      const kept = await readKept(dir, entry.sha256, entry.bytes);
      if (kept) return kept;
      const fetched = await fetchFile();
      if (fetched.length === entry.bytes && (await sha256(fetched)) === entry.sha256)
        await keep(dir, entry.sha256, fetched);
      return fetched;
    },
    async readDerived(model, file, kind) {
      const entry = manifest.get(`${model}/${file}`);
      const name = entry && derivedName(entry.sha256, kind);
      return name ? readKept(dir, name) : undefined;
    },
    async keepDerived(model, file, kind, bytes) {
      const entry = manifest.get(`${model}/${file}`);
      const name = entry && derivedName(entry.sha256, kind);
      if (name) await keep(dir, name, bytes);
    },
    async prune() {
      const named = new Set([...manifest.values()].map((e) => e.sha256));
      try {
        const names: string[] = [];
        for await (const name of (
          dir as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> }
        ).keys())
          if (!named.has(name.split('.')[0]!)) names.push(name);
        for (const name of names) await dir.removeEntry(name).catch(() => undefined);
      } catch {
        // a folder that cannot be listed keeps its files
      }
    },
  };
}
