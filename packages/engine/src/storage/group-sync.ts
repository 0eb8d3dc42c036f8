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
 * file), so a descriptor of it kept here holds none of SQLite's locks. One descriptor is kept from
 * sync to sync: opening, reading the identity of and closing the log for each sync took three more
 * trips through the thread pool, about 1 ms of a single write's 3 ms (a store of 100,000 memories,
 * 2026-12-08). The log's name is looked up beside each sync, at the same time: SQLite deletes the
 * log and makes another (the last connection's close, a re-key) only once it has copied the old
 * one into the database file and synced that, so while the name still names the kept log, the
 * sync of the kept descriptor covers every commit made before the call; once it names another
 * file (or none), the kept one is closed and the new one opened and synced.
 */
import type { FileHandle } from 'node:fs/promises';

import { AnamnesisError } from '@anamnesis/errors';

/** What a group sync needs of the file system (`node:fs/promises`' `open`). */
export type OpenFile = (path: string, flags: string) => Promise<FileHandle>;
/** The identity of the file a path names (`node:fs/promises`' `stat`). */
export type StatFile = (path: string) => Promise<{ dev: number; ino: number }>;

/** A file's identity, as a key: device and inode. */
const identity = ({ dev, ino }: { dev: number; ino: number }) => `${dev}:${ino}`;

/** Syncs a store's write-ahead log for every commit before the call, sharing syncs. */
export class GroupSync {
  readonly #wal: string;
  readonly #folder: string;
  readonly #open: OpenFile;
  readonly #stat: StatFile;
  /** The log's descriptor kept from the last sync, with the file's identity. */
  #log: { handle: FileHandle; id: string } | undefined;
  /** The sync running now; it may have started before the caller's commit. */
  #running: Promise<void> | undefined;
  /** The sync that starts once the running one ends: it covers every commit made until then. */
  #next: Promise<void> | undefined;
  /** Log files synced so far, by device and inode: a new one has its folder synced once too. */
  readonly #known = new Set<string>();
  #syncs = 0;

  /** `path`: the store's database file (its log is `path` + `-wal`), in `folder`. */
  constructor(path: string, folder: string, open: OpenFile, stat: StatFile) {
    this.#wal = `${path}-wal`;
    this.#folder = folder;
    this.#open = open;
    this.#stat = stat;
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
    const kept = this.#log;
    if (kept) {
      // both settle before either's failure is thrown: the descriptor is not closed mid-sync
      const [named, synced] = await Promise.allSettled([
        this.#stat(this.#wal).then(identity, (e: unknown) => {
          if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
          throw e;
        }),
        kept.handle.sync(),
      ]);
      const failed = [synced, named].find((r) => r.status === 'rejected');
      if (failed) {
        await this.#drop();
        throw failed.reason;
      }
      const id = (named as PromiseFulfilledResult<string | undefined>).value;
      if (id === kept.id) {
        this.#syncs++;
        return;
      }
      // another log, or none: the kept one was copied into the database file, which SQLite synced
      await this.#drop();
      if (id === undefined) return;
    }
    let handle: FileHandle;
    try {
      handle = await this.#open(this.#wal, 'r+');
    } catch (e) {
      // No log: its pages were checkpointed into the database file, which SQLite synced.
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw e;
    }
    try {
      const id = identity(await handle.stat());
      await handle.sync();
      this.#syncs++;
      if (!this.#known.has(id)) {
        // a log made since the last sync: its name in the folder must last as well
        await syncFolder(this.#open, this.#folder);
        this.#known.add(id);
      }
      this.#log = { handle, id };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  /**
   * Closes the kept descriptor, if any. While it is open its file's inode cannot be given to a new
   * log, so the identity check above holds; once closed it can, so the file is forgotten: a new log
   * with that inode is a new one, whose name in the folder is synced too.
   */
  async #drop(): Promise<void> {
    const kept = this.#log;
    if (!kept) return;
    this.#log = undefined;
    this.#known.delete(kept.id);
    await kept.handle.close().catch(() => undefined);
  }

  /** Closes the kept descriptor once the running and next syncs have ended (the store closes). */
  async close(): Promise<void> {
    await this.#next?.catch(() => undefined);
    await this.#running?.catch(() => undefined);
    await this.#drop();
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
