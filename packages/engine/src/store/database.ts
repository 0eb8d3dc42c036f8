/**
 * What the engine uses of an open SQLite database: the subset of SQLite-WASM's `oo1.DB` that the
 * store's code calls. SQLite-WASM's handles (memory and OPFS stores) are this type as they are;
 * the file store gives real on-disk SQLite (better-sqlite3) the same shape
 * (`storage/native-database.ts`). Integers read back as JavaScript numbers, blobs as bytes
 * (`Uint8Array`), `NULL` as `null`, and a query without a row as `undefined`.
 */
export interface Database {
  /** Runs SQL (one or more statements), with `bind` for the `?` of a single statement. */
  exec(sql: string | { sql: string; bind?: readonly BindValue[] }): unknown;
  /** The first column of the first row, or `undefined` when there is no row. */
  selectValue(sql: string, bind?: readonly BindValue[]): SqlValue | undefined;
  /** The first column of every row. */
  selectValues(sql: string, bind?: readonly BindValue[]): SqlValue[];
  /** The first row as an array, or `undefined` when there is no row. */
  selectArray(sql: string, bind?: readonly BindValue[]): SqlValue[] | undefined;
  /** Every row as an array. */
  selectArrays(sql: string, bind?: readonly BindValue[]): SqlValue[][];
  /** A statement to run many times (finalize it). */
  prepare(sql: string): Statement;
  /** Registers a scalar SQL function (the FTS triggers call `anamnesis_lexical`). */
  createFunction(
    name: string,
    fn: (ctx: unknown, ...args: SqlValue[]) => SqlValue,
    options: { deterministic?: boolean; innocuous?: boolean },
  ): unknown;
  /** Rows changed by the last INSERT, UPDATE or DELETE. */
  changes(): number;
  close(): void;
}

/** A prepared statement (see {@link Database.prepare}). */
export interface Statement {
  /** Binds the values of its `?` in order. */
  bind(values: readonly BindValue[]): Statement;
  /** Runs one step; true while it has a row. */
  step(): boolean;
  /** Column `i` of the current row. */
  get(i: number): SqlValue;
  /** Runs one step, then resets (bindings kept). */
  stepReset(): Statement;
  /** Rewinds the statement; `clearBindings` also unbinds its values. */
  reset(clearBindings?: boolean): Statement;
  finalize(): unknown;
}

/** A value SQLite hands back. */
export type SqlValue = number | bigint | string | Uint8Array | null;

/** A value bound to a `?`: numbers that are whole bind as INTEGER, others as REAL. */
export type BindValue = SqlValue | boolean | undefined;
