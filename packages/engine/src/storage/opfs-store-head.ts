/**
 * The first bytes of an OPFS store's database file, read before its opfs-sahpool pool is
 * installed. An encrypted store's salt (its first 16 bytes, which SQLite3 Multiple Ciphers keeps
 * in plain text) must be known before the key can be derived, and no connection answers it
 * without the key; once installed, the pool holds every file's sync access handle and exports a
 * file only whole. So the pool's own layout is read here, which both SQLite WASM builds share
 * (`sqlite3-vfs-opfs-sahpool`): the files live in `.anamnesis/<name>/.opaque/` under random
 * names, each begins with a 4,096-byte header whose first 512 bytes are the path of the file it
 * holds (NUL-terminated UTF-8), and the file's bytes follow.
 */
import { storeFile } from './opfs.ts';

/** Bytes before a pool file's data: its header (path, flags, digest), one sector. */
const POOL_HEADER_BYTES = 4096;
/** The path field at the start of the header. */
const POOL_PATH_BYTES = 512;

/**
 * Up to `bytes` first bytes of the database of store `name` as its pool holds them: empty when
 * the store has no database yet (no folder, no file for it, or a file with no data). A file the
 * pool lists whose path does not match is skipped; a file another worker holds open cannot be
 * read in Chromium (`getFile` fails), and then neither could the pool be installed: the error is
 * left to that install, so `undefined` comes back here.
 */
export async function opfsStoreHead(name: string, bytes: number): Promise<Uint8Array | undefined> {
  const root = await navigator.storage.getDirectory();
  const opaque = await root
    .getDirectoryHandle('.anamnesis')
    .then((d) => d.getDirectoryHandle(name))
    .then((d) => d.getDirectoryHandle('.opaque'))
    .catch(() => undefined);
  if (!opaque) return new Uint8Array(0);
  const wanted = storeFile(name);
  const decoder = new TextDecoder();
  try {
    for await (const handle of (
      opaque as unknown as { values(): AsyncIterable<FileSystemHandle> }
    ).values()) {
      if (handle.kind !== 'file') continue;
      const file = await (handle as FileSystemFileHandle).getFile();
      const head = new Uint8Array(await file.slice(0, POOL_HEADER_BYTES + bytes).arrayBuffer());
      const path = head.subarray(0, POOL_PATH_BYTES);
      const end = path.indexOf(0);
      if (end <= 0 || decoder.decode(path.subarray(0, end)) !== wanted) continue;
      return head.subarray(Math.min(POOL_HEADER_BYTES, head.length));
    }
  } catch {
    return undefined;
  }
  return new Uint8Array(0);
}
