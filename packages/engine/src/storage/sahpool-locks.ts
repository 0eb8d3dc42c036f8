/**
 * Hot rollback journals rolled back on an opfs-sahpool pool whose `xCheckReservedLock` always
 * answers "reserved": the pool of SQLite 3.50.4's SQLite-WASM, which SQLite3 Multiple Ciphers'
 * build (`@evolu/sqlite-wasm` 2.2.4, the encrypted OPFS store's) carries. SQLite rolls back a
 * journal left by a writer that stopped mid-transaction only when no connection holds a RESERVED
 * lock on the database (`hasHotJournal` in `pager.c`); told that one always does, it never rolls
 * back, reads the half-written pages, and the store is `STORE_CORRUPT` for good. A worker stopped
 * mid-write does that: Firefox stops a page's worker mid-transaction at a reload (in 4 of 4 runs,
 * the first reload in the middle of a batch left an encrypted store that no longer opened, and
 * native SQLite3MC rolled the same two files back to a whole store), as `Worker.terminate()` can.
 * Later pools (SQLite 3.54's) answer from the locks they hold, as here.
 *
 * So, on such a pool only (told by asking its `xCheckReservedLock` about a file just opened, which
 * holds no lock yet), the pool's file methods are wrapped: `xLock` and `xUnlock` record each open
 * file's lock (and still run), `xClose` forgets it, and `xCheckReservedLock` answers whether any
 * file of the same name holds RESERVED or more. The pool holds its files exclusively, so this
 * worker's files are the only ones that can hold a lock. The pool's VFS `xOpen` is wrapped to learn
 * each file's name.
 */
import type { Sqlite3 } from '../store/sqlite.ts';

/** SQLite's lock levels (`SQLITE_LOCK_*`): above SHARED, a writer holds the database. */
const LOCK_SHARED = 1;

/** The parts of SQLite-WASM's `wasm` and `capi` used here (loosely typed in its declarations). */
interface Wasm {
  installFunction(signature: string, fn: (...args: number[]) => number): number;
  functionEntry(pointer: number): ((...args: number[]) => number) | undefined;
  peekPtr(pointer: number): number;
  peek32(pointer: number): number;
  poke32(pointer: number, value: number): void;
  cstrToJs(pointer: number): string;
  alloc(bytes: number): number;
  dealloc(pointer: number): void;
}
interface Struct {
  dispose(): void;
  [member: `$${string}`]: number;
}
interface Capi {
  sqlite3_vfs_find(name: string): number;
  sqlite3_vfs: new (pointer: number) => Struct;
  sqlite3_io_methods: new (pointer: number) => Struct;
}

/** An open file of a pool: its VFS and name (as the pool keys it), and its lock level. */
type OpenFile = { file: string; lock: number };

/**
 * Per SQLite-WASM instance: the VFSes whose `xOpen` is wrapped, each file-methods table probed
 * (true: wrapped, as its pool always answered "reserved"), and the open files (by `sqlite3_file`
 * pointer) of every pool wrapped.
 */
const seen = new WeakMap<object, State>();
interface State {
  vfs: Set<number>;
  methods: Map<number, boolean>;
  files: Map<number, OpenFile>;
}

/**
 * Makes pool VFS `vfsName` of `sqlite3` roll back hot journals (see the file's comment); nothing
 * changes where the pool already answers from its locks. Call it after the pool is installed and
 * before a database is opened on it (or on a VFS over it); idempotent.
 */
export function rollBackHotJournals(sqlite3: Sqlite3, vfsName: string): void {
  const wasm = sqlite3.wasm as unknown as Wasm;
  const capi = sqlite3.capi as unknown as Capi;
  const state: State = seen.get(sqlite3) ?? {
    vfs: new Set(),
    methods: new Map(),
    files: new Map(),
  };
  seen.set(sqlite3, state);
  const pVfs = capi.sqlite3_vfs_find(vfsName);
  if (!pVfs || state.vfs.has(pVfs)) return;
  state.vfs.add(pVfs);

  const files = state.files;
  const vfs = new capi.sqlite3_vfs(pVfs);
  const open = wasm.functionEntry(vfs.$xOpen!)!;
  vfs.$xOpen = wasm.installFunction('i(pppip)', (vfsPointer, zName, pFile, flags, pOutFlags) => {
    const rc = open(vfsPointer, zName, pFile, flags, pOutFlags);
    if (rc !== 0 || !zName) return rc;
    const pMethods = wasm.peekPtr(pFile);
    let wrapped = state.methods.get(pMethods);
    if (wrapped === undefined) {
      wrapped = alwaysReserved(wasm, capi, pMethods, pFile);
      if (wrapped) wrapFileMethods(wasm, capi, pMethods);
      state.methods.set(pMethods, wrapped);
    }
    if (wrapped)
      files.set(pFile, { file: `${vfsPointer}:${nameOf(wasm.cstrToJs(zName))}`, lock: 0 });
    return rc;
  });
  vfs.dispose();

  /** The file methods, wrapped to track locks (once per methods table). */
  function wrapFileMethods(w: Wasm, c: Capi, pMethods: number): void {
    const io = new c.sqlite3_io_methods(pMethods);
    const lock = w.functionEntry(io.$xLock!)!;
    const unlock = w.functionEntry(io.$xUnlock!)!;
    const close = w.functionEntry(io.$xClose!)!;
    io.$xLock = w.installFunction('i(pi)', (pFile, level) => {
      const rc = lock(pFile, level);
      const file = files.get(pFile);
      if (rc === 0 && file) file.lock = level;
      return rc;
    });
    io.$xUnlock = w.installFunction('i(pi)', (pFile, level) => {
      const rc = unlock(pFile, level);
      const file = files.get(pFile);
      if (rc === 0 && file) file.lock = level;
      return rc;
    });
    io.$xClose = w.installFunction('i(p)', (pFile) => {
      files.delete(pFile);
      return close(pFile);
    });
    io.$xCheckReservedLock = w.installFunction('i(pp)', (pFile, pOut) => {
      const name = files.get(pFile)?.file;
      let reserved = false;
      for (const other of files.values())
        if (other.file === name && other.lock > LOCK_SHARED) reserved = true;
      w.poke32(pOut, reserved ? 1 : 0);
      return 0;
    });
    io.dispose();
  }
}

/** A file name as the pool keys it (`new URL(name, 'file://localhost/').pathname`). */
function nameOf(name: string): string {
  return new URL(name, 'file://localhost/').pathname;
}

/** Whether the pool's `xCheckReservedLock` says "reserved" of `pFile`, which holds no lock. */
function alwaysReserved(wasm: Wasm, capi: Capi, pMethods: number, pFile: number): boolean {
  const io = new capi.sqlite3_io_methods(pMethods);
  const check = wasm.functionEntry(io.$xCheckReservedLock!)!;
  io.dispose();
  const pOut = wasm.alloc(4);
  try {
    wasm.poke32(pOut, 0);
    return check(pFile, pOut) === 0 && wasm.peek32(pOut) === 1;
  } finally {
    wasm.dealloc(pOut);
  }
}
