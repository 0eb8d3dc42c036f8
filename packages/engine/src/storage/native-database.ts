import type { BindValue, Database, SqlValue, Statement } from '../store/database.ts';
import type { Columns, Reader } from '../store/reader.ts';

/** The part of a better-sqlite3 statement used here. */
export interface NativeStatement {
  /** Whether the statement returns rows (a SELECT, a PRAGMA, `… RETURNING`). */
  readonly reader: boolean;
  raw(on: boolean): NativeStatement;
  pluck(on: boolean): NativeStatement;
  /** The result columns (one entry each). */
  columns(): readonly unknown[];
  run(...params: unknown[]): { changes: number };
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
}

/** The part of a better-sqlite3 database used here. */
export interface NativeConnection {
  readonly open: boolean;
  readonly readonly: boolean;
  prepare(sql: string): NativeStatement;
  exec(sql: string): unknown;
  function(
    name: string,
    options: { deterministic?: boolean; varargs?: boolean; directOnly?: boolean },
    fn: (...args: unknown[]) => unknown,
  ): unknown;
  close(): unknown;
}

/** Statements kept per connection by SQL text (least recently used dropped first). */
const KEPT_STATEMENTS = 128;

/** A numbered parameter (`?2`). */
const NUMBERED = /\?\d/;
/** Every parameter, numbered or not. */
const PARAMETERS = /\?(\d*)/g;

/**
 * A whole number binds as INTEGER, as SQLite-WASM binds it (better-sqlite3 binds every number as
 * REAL, which a column without affinity would keep as `5.0`); booleans as 1 or 0, `undefined` as
 * NULL.
 */
function bindable(values: readonly BindValue[] | undefined): unknown[] {
  if (!values) return [];
  return values.map((v) =>
    typeof v === 'number' && Number.isSafeInteger(v)
      ? BigInt(v)
      : typeof v === 'boolean'
        ? BigInt(v ? 1 : 0)
        : v === undefined
          ? null
          : v,
  );
}

/** A value as SQLite-WASM hands it back (bigints only past 2^53, which the store never writes). */
function value(v: unknown): SqlValue {
  if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : v;
  return v as SqlValue;
}

/**
 * Real on-disk SQLite (a better-sqlite3 connection) as the engine's {@link Database}: the subset of
 * SQLite-WASM's `oo1.DB` the store's code calls, with the same values in and out. Statements are
 * prepared once per SQL text and kept ({@link KEPT_STATEMENTS}).
 */
export class NativeDatabase implements Database {
  readonly connection: NativeConnection;
  readonly #statements = new Map<string, NativeStatement>();
  #changes = 0;

  constructor(connection: NativeConnection) {
    this.connection = connection;
  }

  /** The kept statement of `sql` (prepared on first use). */
  statement(sql: string): NativeStatement {
    let stmt = this.#statements.get(sql);
    if (stmt) {
      this.#statements.delete(sql);
    } else {
      stmt = this.#prepare(sql);
      if (this.#statements.size >= KEPT_STATEMENTS)
        this.#statements.delete(this.#statements.keys().next().value!);
    }
    this.#statements.set(sql, stmt);
    return stmt;
  }

  /**
   * Prepares `sql`. better-sqlite3 takes numbered parameters (`?2`) for named ones: a statement
   * with them is prepared with every parameter replaced by a plain `?`, and its values are bound
   * in that order (the engine's SQL has no `?` inside string literals).
   */
  #prepare(sql: string): NativeStatement {
    if (!NUMBERED.test(sql)) return this.connection.prepare(sql);
    // As SQLite numbers them: `?N` is N, a plain `?` one more than the largest number so far.
    const order: number[] = [];
    let largest = 0;
    const stmt = this.connection.prepare(
      sql.replace(PARAMETERS, (_m, n: string) => {
        const number = n === '' ? largest + 1 : Number(n);
        largest = Math.max(largest, number);
        order.push(number - 1);
        return '?';
      }),
    );
    const reorder = (params: unknown[]) => order.map((i) => params[i]);
    const wrapped: NativeStatement = {
      get reader() {
        return stmt.reader;
      },
      raw: (on) => (stmt.raw(on), wrapped),
      pluck: (on) => (stmt.pluck(on), wrapped),
      columns: () => stmt.columns(),
      run: (...p) => stmt.run(...reorder(p)),
      get: (...p) => stmt.get(...reorder(p)),
      all: (...p) => stmt.all(...reorder(p)),
      iterate: (...p) => stmt.iterate(...reorder(p)),
    };
    return wrapped;
  }

  /** A statement prepared afresh (see {@link NativeDatabase.statement} for kept ones). */
  fresh(sql: string): NativeStatement {
    return this.#prepare(sql);
  }

  exec(sql: string | { sql: string; bind?: readonly BindValue[] }): void {
    if (typeof sql === 'string') {
      this.connection.exec(sql);
      this.#changes = Number(this.statement('SELECT changes()').pluck(true).get());
      return;
    }
    const stmt = this.statement(sql.sql);
    const params = bindable(sql.bind);
    if (stmt.reader) {
      stmt.raw(true).all(...params);
      this.#changes = Number(this.statement('SELECT changes()').pluck(true).get());
    } else {
      this.#changes = stmt.run(...params).changes;
    }
  }

  selectValue(sql: string, bind?: readonly BindValue[]): SqlValue | undefined {
    const row = this.statement(sql)
      .raw(true)
      .get(...bindable(bind)) as unknown[] | undefined;
    return row === undefined ? undefined : value(row[0]);
  }

  selectValues(sql: string, bind?: readonly BindValue[]): SqlValue[] {
    return (
      this.statement(sql)
        .raw(true)
        .all(...bindable(bind)) as unknown[][]
    ).map((r) => value(r[0]));
  }

  selectArray(sql: string, bind?: readonly BindValue[]): SqlValue[] | undefined {
    const row = this.statement(sql)
      .raw(true)
      .get(...bindable(bind)) as unknown[] | undefined;
    return row?.map(value);
  }

  selectArrays(sql: string, bind?: readonly BindValue[]): SqlValue[][] {
    return (
      this.statement(sql)
        .raw(true)
        .all(...bindable(bind)) as unknown[][]
    ).map((r) => r.map(value));
  }

  prepare(sql: string): Statement {
    return new NativePrepared(this.#prepare(sql), (n) => (this.#changes = n));
  }

  createFunction(
    name: string,
    fn: (ctx: unknown, ...args: SqlValue[]) => SqlValue,
    options: { deterministic?: boolean },
  ): void {
    this.connection.function(
      name,
      { deterministic: options.deterministic ?? false, varargs: true },
      (...args: unknown[]) => fn(undefined, ...args.map(value)),
    );
  }

  changes(): number {
    return this.#changes;
  }

  close(): void {
    this.#statements.clear();
    if (this.connection.open) this.connection.close();
  }
}

/**
 * A statement as {@link Statement}: each `step` runs it once with the bound values (the engine
 * steps a statement once per binding: an `INSERT … RETURNING` of one row, an insert per vector).
 */
class NativePrepared implements Statement {
  readonly #stmt: NativeStatement;
  readonly #changed: (n: number) => void;
  #params: unknown[] = [];
  #row: unknown[] | undefined;

  constructor(stmt: NativeStatement, changed: (n: number) => void) {
    this.#stmt = stmt;
    this.#changed = changed;
  }

  bind(values: readonly BindValue[]): Statement {
    this.#params = bindable(values);
    return this;
  }

  step(): boolean {
    if (this.#stmt.reader) {
      this.#row = this.#stmt.raw(true).get(...this.#params) as unknown[] | undefined;
      return this.#row !== undefined;
    }
    this.#changed(this.#stmt.run(...this.#params).changes);
    this.#row = undefined;
    return false;
  }

  get(i: number): SqlValue {
    return value(this.#row?.[i] ?? null);
  }

  stepReset(): Statement {
    this.step();
    return this.reset();
  }

  reset(clearBindings = false): Statement {
    this.#row = undefined;
    if (clearBindings) this.#params = [];
    return this;
  }

  finalize(): void {
    this.#row = undefined;
  }
}

const EMPTY = new Uint8Array(0);

/** A number's text, as SQLite gives a numeric column read as TEXT. */
function asText(v: unknown): string {
  return typeof v === 'number' || typeof v === 'bigint' ? v.toString() : '';
}
const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();

/**
 * The recall path's {@link Reader} on a better-sqlite3 connection: statements kept (by the
 * {@link NativeDatabase}), rows read in raw (array) mode; `all` reads every row in one call,
 * `each` streams them (a bulk read of 100k stored vectors never holds them all at once). Values
 * read as {@link WasmReader}'s do: a BLOB as its bytes, a TEXT column's bytes as its UTF-8.
 */
export class NativeReader implements Reader {
  readonly #db: NativeDatabase;
  #row: unknown[] = [];
  readonly #columns: Columns;
  /** Whether each SQL text read by `all` returns one column (read as plain values: 4× faster). */
  readonly #single = new Map<string, boolean>();

  constructor(db: NativeDatabase) {
    this.#db = db;
    this.#columns = {
      num: (i) => {
        const v = this.#row[i];
        return v === null || v === undefined ? 0 : Number(v);
      },
      text: (i) => {
        const v = this.#row[i];
        if (v === null || v === undefined) return null;
        if (typeof v === 'string') return v;
        return v instanceof Uint8Array ? utf8Decoder.decode(v) : asText(v);
      },
      blob: (i) => {
        const v = this.#row[i];
        if (v instanceof Uint8Array) return v;
        if (v === null || v === undefined) return EMPTY;
        return utf8.encode(typeof v === 'string' ? v : asText(v));
      },
    };
  }

  all<T>(sql: string, params: readonly (string | number | null)[], map: (row: Columns) => T): T[] {
    const stmt = this.#db.statement(sql);
    let single = this.#single.get(sql);
    if (single === undefined) {
      single = stmt.columns().length === 1;
      if (this.#single.size >= 256) this.#single.clear();
      this.#single.set(sql, single);
    }
    if (single) {
      // one value a row instead of an array a row (a word's 27k matches: 3.5 ms, not 13)
      const values = stmt.pluck(true).all(...bindable(params));
      const row: unknown[] = [undefined];
      const out = new Array<T>(values.length);
      this.#row = row;
      for (let i = 0; i < values.length; i++) {
        row[0] = values[i];
        out[i] = map(this.#columns);
      }
      this.#row = [];
      return out;
    }
    const rows = stmt.raw(true).all(...bindable(params)) as unknown[][];
    const out = new Array<T>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      this.#row = rows[i]!;
      out[i] = map(this.#columns);
    }
    this.#row = [];
    return out;
  }

  each(
    sql: string,
    params: readonly (string | number | null)[],
    visit: (row: Columns) => void,
  ): void {
    // A statement being iterated cannot run again until the iteration ends: prepared afresh.
    const stmt = this.#db.fresh(sql).raw(true);
    for (const row of stmt.iterate(...bindable(params))) {
      this.#row = row as unknown[];
      visit(this.#columns);
    }
    this.#row = [];
  }

  close(): void {
    // the statements are the database's
  }
}
