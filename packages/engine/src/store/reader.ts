import type { Sqlite3, WasmDatabase } from './sqlite.ts';

/** One result row of {@link Reader.all}: typed column getters, valid only inside the callback. */
export interface Columns {
  /** A numeric column (INTEGER or REAL) as a JS number; NULL reads as 0. */
  num(i: number): number;
  /** A TEXT column; NULL reads as `null`. */
  text(i: number): string | null;
  /**
   * A BLOB column's bytes as a view of SQLite's memory, valid only inside the callback (copy what
   * is kept); NULL or empty reads as an empty view.
   */
  blob(i: number): Uint8Array;
}

/**
 * The recall path's SQL reads, on prepared statements kept and reused across calls, rows read
 * straight into the caller's objects. Each store's SQLite has its own ({@link WasmReader} for
 * SQLite-WASM, `NativeReader` for the file store's); `StorageBackend.reader` opens one.
 */
export interface Reader {
  /** Runs a read-only statement and maps each row; `map` must not run SQL on this reader. */
  all<T>(sql: string, params: readonly (string | number | null)[], map: (row: Columns) => T): T[];
  /** Runs a read-only statement and calls `visit` with each row; `visit` must not run SQL on this reader. */
  each(
    sql: string,
    params: readonly (string | number | null)[],
    visit: (row: Columns) => void,
  ): void;
  /** Finalizes the kept statements (the database closes them anyway when it closes). */
  close(): void;
}

/** SQLite-WASM's raw C exports used on the read path (no argument conversion, no scoped allocation). */
interface RawExports {
  sqlite3_step(stmt: number): number;
  sqlite3_column_double(stmt: number, i: number): number;
  sqlite3_column_text(stmt: number, i: number): number;
  sqlite3_column_blob(stmt: number, i: number): number;
  sqlite3_column_bytes(stmt: number, i: number): number;
}

type Stmt = ReturnType<WasmDatabase['prepare']>;

const utf8 = new TextDecoder();
const SQLITE_ROW = 100;
const SQLITE_DONE = 101;

/**
 * The recall path's SQL reads on SQLite-WASM: prepared statements kept (up to `capacity`, least recently used
 * finalized first) and reused across calls, and rows read through SQLite's raw column functions
 * straight into the caller's objects. SQLite-WASM's generic `selectArrays` prepares every
 * statement again and reads each column through a type switch and a wrapper that allocates; at a
 * thousand memories that was most of an uncached recall. Values are the same: integers are exact
 * below 2^53 (`sqlite3_column_double` converts them), text is decoded as UTF-8 as `oo1` does.
 *
 * A statement is always reset (and its bindings cleared) after use, so a kept statement holds no
 * lock and never sees a stale binding; statements survive schema changes (SQLite re-prepares them).
 */
export class WasmReader implements Reader {
  readonly #db: WasmDatabase;
  readonly #sqlite3: Sqlite3;
  readonly #x: RawExports;
  readonly #capacity: number;
  readonly #statements = new Map<string, Stmt>();
  #pStmt = 0;
  readonly #columns: Columns;

  /** @param capacity prepared statements kept; default 64 */
  constructor(db: WasmDatabase, sqlite3: Sqlite3, capacity = 64) {
    this.#db = db;
    this.#sqlite3 = sqlite3;
    this.#x = sqlite3.wasm.exports as RawExports;
    this.#capacity = capacity;
    const x = this.#x;
    const wasm = sqlite3.wasm;
    this.#columns = {
      num: (i) => x.sqlite3_column_double(this.#pStmt, i),
      text: (i) => {
        const p = x.sqlite3_column_text(this.#pStmt, i);
        if (!p) return null;
        const n = x.sqlite3_column_bytes(this.#pStmt, i);
        const heap = wasm.heap8u();
        // TextDecoder refuses views of shared memory: copy out of a shared heap
        return utf8.decode(
          heap.buffer instanceof ArrayBuffer ? heap.subarray(p, p + n) : heap.slice(p, p + n),
        );
      },
      blob: (i) => {
        const p = x.sqlite3_column_blob(this.#pStmt, i);
        const n = p ? x.sqlite3_column_bytes(this.#pStmt, i) : 0;
        return wasm.heap8u().subarray(p, p + n);
      },
    };
  }

  #statement(sql: string): Stmt {
    let stmt = this.#statements.get(sql);
    if (stmt) {
      this.#statements.delete(sql); // most recently used last
    } else {
      stmt = this.#db.prepare(sql);
      if (this.#statements.size >= this.#capacity) {
        const [oldest, old] = this.#statements.entries().next().value!;
        this.#statements.delete(oldest);
        old.finalize();
      }
    }
    this.#statements.set(sql, stmt);
    return stmt;
  }

  /** Runs a read-only statement and maps each row; `map` must not run SQL on this reader. */
  all<T>(sql: string, params: readonly (string | number | null)[], map: (row: Columns) => T): T[] {
    const out: T[] = [];
    this.each(sql, params, (row) => void out.push(map(row)));
    return out;
  }

  /** Runs a read-only statement and calls `visit` with each row; `visit` must not run SQL on this reader. */
  each(
    sql: string,
    params: readonly (string | number | null)[],
    visit: (row: Columns) => void,
  ): void {
    const stmt = this.#statement(sql);
    try {
      if (params.length > 0) stmt.bind(params as (string | number | null)[]);
      const p = Number(stmt.pointer);
      for (;;) {
        const rc = this.#x.sqlite3_step(p);
        if (rc === SQLITE_ROW) {
          this.#pStmt = p;
          visit(this.#columns);
        } else if (rc === SQLITE_DONE) {
          break;
        } else {
          // sqlite3_reset returns the step's error; oo1 throws it as an SQLite3Error with its code.
          stmt.reset();
          throw new this.#sqlite3.SQLite3Error(rc);
        }
      }
    } finally {
      stmt.reset(true);
    }
  }

  /** Finalizes the kept statements (the database closes them anyway when it closes). */
  close(): void {
    for (const stmt of this.#statements.values()) {
      try {
        stmt.finalize();
      } catch {
        // already finalized by the database's close
      }
    }
    this.#statements.clear();
  }
}
