/**
 * Group commit for a file store. Its connection runs `synchronous = NORMAL` in WAL mode: a COMMIT
 * appends the transaction's pages to the write-ahead log and releases the write lock at once,
 * without waiting for the disk. A write is acknowledged only once the log is synced, by
 * {@link GroupSync.sync}: one `fsync` of the log, on libuv's thread pool, covers every commit made
 * before it started, so writes that arrive together (calls of this process, or of several
 * processes on one store) share one sync, and no process holds the write lock while the disk
 * works. Checkpoints stay SQLite's: under `NORMAL` it syncs the log before copying it into the
 * database file and syncs the database file after.
 *
 * SQLite never locks the `-wal` file (WAL mode's locks are on the `-shm` file and the database
 * file), so opening and closing a descriptor of it here drops none of SQLite's locks. It is opened
 * for each sync: the log is deleted and made again when the store is re-keyed.
 */
import type { FileHandle } from 'node:fs/promises';

import { AnamnesisError } from '@anamnesis/errors';

/** What a group sync needs of the file system (`node:fs/promises`' `open`). */
export type OpenFile = (path: string, flags: string) => Promise<FileHandle>;

/** Syncs a store's write-ahead log for every commit before the call, sharing syncs. */
export class GroupSync {
  readonly #wal: string;
  readonly #folder: string;
  readonly #open: OpenFile;
  /** The sync running now; it may have started before the caller's commit. */
  #running: Promise<void> | undefined;
  /** The sync that starts once the running one ends: it covers every commit made until then. */
  #next: Promise<void> | undefined;
  /** Log files synced so far, by device and inode: a new one has its folder synced once too. */
  readonly #known = new Set<string>();
  #syncs = 0;

  /** `path`: the store's database file (its log is `path` + `-wal`), in `folder`. */
  constructor(path: string, folder: string, open: OpenFile) {
    this.#wal = `${path}-wal`;
    this.#folder = folder;
    this.#open = open;
  }

  /** `fsync`s done so far. */
  get syncs(): number {
    return this.#syncs;
  }

  /**
   * Resolves once every commit made before the call is on disk: a sync that starts after the
   * call (a running one may have started before the commit: the next one is shared by everyone
   * who asks meanwhile). `INTERNAL` when the sync fails: the writes are committed, but may not
   * survive a crash of the machine.
   */
  sync(): Promise<void> {
    if (this.#next) return this.#next;
    if (!this.#running) return (this.#running = this.#start());
    this.#next = this.#running
      .catch(() => undefined)
      .then(() => {
        this.#next = undefined;
        return (this.#running = this.#start());
      });
    return this.#next;
  }

  #start(): Promise<void> {
    const done = this.#fsync().catch((e: unknown) => {
      throw new AnamnesisError(
        'INTERNAL',
        `syncing ${this.#wal} failed: the write is committed but may not survive a crash of the machine (${(e as Error).message})`,
        { cause: e },
      );
    });
    void done.then(
      () => this.#settled(done),
      () => this.#settled(done),
    );
    return done;
  }

  #settled(done: Promise<void>): void {
    if (this.#running === done) this.#running = undefined;
  }

  async #fsync(): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await this.#open(this.#wal, 'r+');
    } catch (e) {
      // No log: its pages were checkpointed into the database file, which SQLite synced.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    try {
      const { dev, ino } = await handle.stat();
      await handle.sync();
      this.#syncs++;
      const id = `${dev}:${ino}`;
      if (!this.#known.has(id)) {
        // a log made since the last sync: its name in the folder must last as well
        await syncFolder(this.#open, this.#folder);
        this.#known.add(id);
      }
    } finally {
      await handle.close();
    }
  }
}

/** `fsync`s a folder (its entries), where the platform allows it (not Windows). */
async function syncFolder(open: OpenFile, folder: string): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(folder, 'r');
  } catch {
    return;
  }
  try {
    await handle.sync();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw e;
  } finally {
    await handle.close();
  }
}
