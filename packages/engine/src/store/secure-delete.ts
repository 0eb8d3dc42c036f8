import type { Database } from './database.ts';
import { transaction } from './sqlite.ts';
import type { EngineStats } from '../types.ts';

/**
 * Forgotten text made gone from the store's file (issue 71). SQLite does not erase what a delete
 * removes: the row's bytes stay in its page (and in free pages), the FTS5 indexes keep a deleted
 * memory's words in their segments until those are merged, and a WAL keeps old page images until a
 * checkpoint. So:
 *
 * - every connection runs with `PRAGMA secure_delete = ON`: deleted content and freed pages are
 *   overwritten with zeros ({@link forgetting});
 * - where the SQLite build carries the fix for the heap overflow in FTS5's secure-delete path
 *   (CVE-2026-119374, fixed in 3.54.0: the SQLite-WASM of the browser and memory stores), both
 *   lexical indexes run with FTS5's `secure-delete` option, which removes a deleted memory's
 *   words from the index at once; an older build (the native modules of the Node file store,
 *   3.53.2; the encrypted browser store's, 3.50.4) keeps that option off, and its indexes are
 *   rewritten whole (FTS5's `'optimize'`) once text was removed ({@link purge}: the engine runs it
 *   while quiet and at close, `engine/forget-purge.ts`);
 * - the file store's WAL is checkpointed and truncated after that.
 *
 * Triggers (schema migration 12) count in `meta` every text removed (a memory forgotten, a text
 * updated); the purge records the count it reached.
 */

/** The first SQLite whose FTS5 secure-delete path has the fix (CVE-2026-119374). */
export const SECURE_DELETE_FTS_FROM = '3.54.0';

/** The `meta` keys: text removals counted by the triggers, and the count the last purge reached. */
const REMOVED = 'text_removed'; // also written out in COUNT_REMOVALS
const PURGED = 'text_purged';

/** The two lexical indexes (FTS5 tables with `contentless_delete`), each statement written out. */
const INDEXES = [
  {
    option: "SELECT v FROM memories_fts_config WHERE k = 'secure-delete'",
    set: "INSERT INTO memories_fts(memories_fts, rank) VALUES ('secure-delete', ?)",
    optimize: "INSERT INTO memories_fts(memories_fts) VALUES ('optimize')",
  },
  {
    option: "SELECT v FROM memories_words_config WHERE k = 'secure-delete'",
    set: "INSERT INTO memories_words(memories_words, rank) VALUES ('secure-delete', ?)",
    optimize: "INSERT INTO memories_words(memories_words) VALUES ('optimize')",
  },
] as const;

/** An index's FTS5 `secure-delete` option (0 where never set). */
function optionOf(db: Database, index: (typeof INDEXES)[number]): number {
  return Number(db.selectValue(index.option) ?? 0);
}

/** Whether SQLite version `a` (dotted) is at least `b`. */
export function atLeast(a: string, b: string): boolean {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  }
  return true;
}

/** FTS5's `secure-delete` for this build: on where it has the fix, off where it has not. */
function wanted(db: Database): boolean {
  return atLeast(String(db.selectValue('SELECT sqlite_version()')), SECURE_DELETE_FTS_FROM);
}

/** Whether both lexical indexes have FTS5's `secure-delete` on. */
function lexicalOn(db: Database): boolean {
  return INDEXES.every((t) => optionOf(db, t) === 1);
}

/**
 * Sets the connection up to forget: `secure_delete` on, and FTS5's `secure-delete` option of both
 * lexical indexes on where the build has the fix, off where it has not (a store written by a newer
 * build may have turned it on). Writes only when the option must change; a store that cannot be
 * written (read-only) keeps it as it is.
 */
export function setUpForgetting(db: Database): void {
  db.exec('PRAGMA secure_delete = ON');
  const want = wanted(db) ? 1 : 0;
  const stale = INDEXES.filter((t) => optionOf(db, t) !== want);
  if (stale.length === 0) return;
  try {
    transaction(db, 'setting up secure delete', () => {
      for (const t of stale) db.exec({ sql: t.set, bind: [want] });
    });
  } catch {
    // a read-only store: nothing is deleted from it here either
  }
}

/** How the store forgets now (`stats().forgetting`). */
export function forgetting(db: Database): EngineStats['forgetting'] {
  return {
    sqliteVersion: String(db.selectValue('SELECT sqlite_version()')),
    lexicalSecureDelete: lexicalOn(db),
    purgeDue: purgeDue(db),
  };
}

/** Whether text was removed since the last purge. */
export function purgeDue(db: Database): boolean {
  const count = (key: string) =>
    Number(db.selectValue('SELECT value FROM meta WHERE key = ?', [key]) ?? 0);
  return count(REMOVED) !== count(PURGED);
}

/**
 * Removed text purged from the file: the lexical indexes rewritten whole where the build has no
 * FTS5 secure-delete (`lexicalSecureDelete` false), then the WAL checkpointed and truncated
 * (`wal`: the file store). One transaction for the rewrite; the count reached recorded in it.
 * Returns false (nothing remains to do).
 */
export function purge(db: Database, lexicalSecureDelete: boolean, wal: boolean): boolean {
  if (!purgeDue(db)) return false;
  transaction(db, 'purging forgotten text', () => {
    const reached = db.selectValue('SELECT value FROM meta WHERE key = ?', [REMOVED]) ?? '0';
    if (!lexicalSecureDelete) for (const t of INDEXES) db.exec(t.optimize);
    db.exec({
      sql: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)',
      bind: [PURGED, String(reached)],
    });
  });
  if (wal) db.selectValue('PRAGMA wal_checkpoint(TRUNCATE)');
  return false;
}

/**
 * Schema migration 12: the triggers that count text removals in `meta` (a memory deleted, or its
 * text changed).
 */
export const COUNT_REMOVALS = `
  CREATE TRIGGER IF NOT EXISTS memories_removed_ad AFTER DELETE ON memories BEGIN
    INSERT INTO meta(key, value) VALUES ('text_removed', '1')
      ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS memories_removed_au AFTER UPDATE OF text ON memories
    WHEN old.text IS NOT new.text BEGIN
    INSERT INTO meta(key, value) VALUES ('text_removed', '1')
      ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1;
  END;
`;
