import { AnamnesisError } from '@anamnesis/errors';
import { relationsOf } from '@anamnesis/ranking';
import { LEXICAL_SQL_FUNCTION, lexicalText } from './lexical.ts';
import { SITE_SQL_FUNCTION, siteWordsOfMeta } from './site.ts';
import type { Database } from './database.ts';
import { COUNT_REMOVALS, setUpForgetting } from './secure-delete.ts';
import { transaction } from './sqlite.ts';

/**
 * The `meta` key whose row, while it exists, tells the insert trigger that the statement's writer
 * fills the FTS indexes itself (the last migration names it as written here).
 */
export const INSERT_INDEXES_FTS = 'insert_indexes_fts';
/**
 * The lexical index's instances (a row for each time a token occurs in a memory: the token, the
 * memory's rid, the column, the offset), as `recall/phrase-instances.ts` reads them: a table of
 * each connection's own (`migrate` creates it), so that no store holds it.
 */
export const FTS_INSTANCES = 'temp.memories_fts_instances';
/**
 * The lexical index's tokens with the number of memories holding each (`recall/match.ts` counts
 * a one-word phrase's memories there: a lookup, not a scan of its matches); the connection's own.
 */
export const FTS_TOKENS = 'temp.memories_fts_tokens';

/**
 * Versioned migrations: migration i brings the store from version i to i + 1. A store newer than
 * this code is refused rather than guessed at.
 */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
  CREATE TABLE memories (
    rid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    text TEXT NOT NULL,
    kind TEXT NOT NULL,
    session TEXT,
    tags TEXT NOT NULL,
    meta TEXT NOT NULL,
    importance REAL NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    access_count INTEGER NOT NULL DEFAULT 0,
    memory_score REAL NOT NULL DEFAULT 0,
    content_hash TEXT NOT NULL
  );
  CREATE INDEX memories_session ON memories(session, created_at);
  CREATE INDEX memories_hash ON memories(content_hash);
  CREATE INDEX memories_created ON memories(created_at);
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    text, tags, content='memories', content_rowid='rid', tokenize='porter unicode61'
  );
  CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, text, tags) VALUES (new.rid, new.text, new.tags);
  END;
  CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, text, tags) VALUES ('delete', old.rid, old.text, old.tags);
  END;
  CREATE TRIGGER memories_au AFTER UPDATE OF text, tags ON memories BEGIN
    INSERT INTO memories_fts(memories_fts, rowid, text, tags) VALUES ('delete', old.rid, old.text, old.tags);
    INSERT INTO memories_fts(rowid, text, tags) VALUES (new.rid, new.text, new.tags);
  END;
  CREATE TABLE embeddings (
    rid INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    model TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, rid)
  ) WITHOUT ROWID;
  CREATE INDEX embeddings_rid ON embeddings(rid);
  CREATE TABLE links (
    src INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    dst INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    weight REAL NOT NULL,
    PRIMARY KEY (src, dst, kind)
  ) WITHOUT ROWID;
  CREATE INDEX links_dst ON links(dst);
  CREATE TABLE usage (
    rid INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    event TEXT NOT NULL CHECK (event IN ('retrieved', 'selected', 'used', 'discarded')),
    at INTEGER NOT NULL
  );
  CREATE INDEX usage_rid ON usage(rid, event);
  `,
  // Operation ids of writes forwarded between tabs, with the reply each got: a write sent again
  // after an owner hand-over is answered from here instead of being applied twice.
  `
  CREATE TABLE operations (id TEXT PRIMARY KEY, reply TEXT NOT NULL, at INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX operations_at ON operations(at);
  `,
  // The stored vectors also as large parts (see vector-snapshot.ts), read at open instead of one
  // row per memory. The triggers delete every part when a stored vector they may hold changes.
  `
  CREATE TABLE vector_snapshot (
    last_rid INTEGER PRIMARY KEY,
    model TEXT NOT NULL,
    format INTEGER NOT NULL,
    n_rows INTEGER NOT NULL,
    rids BLOB NOT NULL,
    vectors BLOB NOT NULL,
    quantized BLOB NOT NULL
  );
  CREATE TRIGGER embeddings_snapshot_ai AFTER INSERT ON embeddings
    WHEN new.rid <= (SELECT max(last_rid) FROM vector_snapshot)
    BEGIN DELETE FROM vector_snapshot; END;
  CREATE TRIGGER embeddings_snapshot_ad AFTER DELETE ON embeddings
    WHEN EXISTS (SELECT 1 FROM vector_snapshot)
    BEGIN DELETE FROM vector_snapshot; END;
  CREATE TRIGGER embeddings_snapshot_au AFTER UPDATE ON embeddings
    WHEN EXISTS (SELECT 1 FROM vector_snapshot)
    BEGIN DELETE FROM vector_snapshot; END;
  `,
  // `list` by last update (a notes app's recent notes): an index range instead of sorting every row.
  `
  CREATE INDEX IF NOT EXISTS memories_updated ON memories(updated_at);
  `,
  // Words in every script: the index holds `anamnesis_lexical(text)` (LEXICAL_SQL_FUNCTION, lexical.ts: words cut by
  // Intl.Segmenter where a script has no spaces, Cyrillic stemmed), so it keeps no copy of the text
  // (contentless) and deletes by rowid alone: what it holds never has to be computed again.
  `
  DROP TRIGGER memories_ai;
  DROP TRIGGER memories_ad;
  DROP TRIGGER memories_au;
  DROP TABLE memories_fts;
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    text, tags, content='', contentless_delete=1, tokenize='porter unicode61'
  );
  CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, text, tags) VALUES (new.rid, anamnesis_lexical(new.text), new.tags);
  END;
  CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.rid;
  END;
  CREATE TRIGGER memories_au AFTER UPDATE OF text, tags ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.rid;
    INSERT INTO memories_fts(rowid, text, tags) VALUES (new.rid, anamnesis_lexical(new.text), new.tags);
  END;
  INSERT INTO memories_fts(rowid, text, tags) SELECT rid, anamnesis_lexical(text), tags FROM memories;
  `,
  // What a search box needs. The words index gains a low-weight `site` column: the host and path
  // words of `meta.url` (anamnesis_site, site.ts), so a domain or a pasted address finds its page.
  // `memories_words` holds every memory's words as written (no stemming: `unicode61` alone) with
  // no positions (`detail=none`), and `memories_vocab` lists them with their document counts: the
  // store's own vocabulary, which completes the word being typed ("panc" → "pancake", which the
  // stemmed index alone cannot: it holds "pancak") and corrects a word no memory has
  // ("restaurnt" → "restaurant"). The index is rebuilt with what lexicalText now adds (American
  // spellings, emoji names).
  `
  DROP TRIGGER memories_ai;
  DROP TRIGGER memories_ad;
  DROP TRIGGER memories_au;
  DROP TABLE memories_fts;
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    text, tags, site, content='', contentless_delete=1, tokenize='porter unicode61'
  );
  CREATE VIRTUAL TABLE memories_words USING fts5(
    words, content='', contentless_delete=1, detail=none, tokenize='unicode61'
  );
  CREATE VIRTUAL TABLE memories_vocab USING fts5vocab(memories_words, 'row');
  CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts(rowid, text, tags, site)
      VALUES (new.rid, anamnesis_lexical(new.text), new.tags, anamnesis_site(new.meta));
    INSERT INTO memories_words(rowid, words)
      VALUES (new.rid, anamnesis_lexical(new.text) || ' ' || new.tags || ' ' || anamnesis_site(new.meta));
  END;
  CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.rid;
    DELETE FROM memories_words WHERE rowid = old.rid;
  END;
  CREATE TRIGGER memories_au AFTER UPDATE OF text, tags, meta ON memories BEGIN
    DELETE FROM memories_fts WHERE rowid = old.rid;
    DELETE FROM memories_words WHERE rowid = old.rid;
    INSERT INTO memories_fts(rowid, text, tags, site)
      VALUES (new.rid, anamnesis_lexical(new.text), new.tags, anamnesis_site(new.meta));
    INSERT INTO memories_words(rowid, words)
      VALUES (new.rid, anamnesis_lexical(new.text) || ' ' || new.tags || ' ' || anamnesis_site(new.meta));
  END;
  INSERT INTO memories_fts(rowid, text, tags, site)
    SELECT rid, anamnesis_lexical(text), tags, anamnesis_site(meta) FROM memories;
  INSERT INTO memories_words(rowid, words)
    SELECT rid, anamnesis_lexical(text) || ' ' || tags || ' ' || anamnesis_site(meta) FROM memories;
  `,
  // Many processes on one file store: the rows whose text, session or stored vector changed, in
  // commit order, so another process catches up with its in-memory state (vectors, TF-IDF, the
  // Bloom filter) by rid (see engine/change-log.ts). Only the latest 10,000 entries or so are kept
  // (every 1,000th entry deletes those 10,000 before it): a process further behind reloads everything.
  // Usage that does not grow without bound: events older than a window are folded into one row
  // per memory and event kind, a count and a decayed sum with its reference time (usage-fold.ts).
  `
  CREATE TABLE changes (seq INTEGER PRIMARY KEY AUTOINCREMENT, rid INTEGER NOT NULL);
  CREATE TRIGGER changes_prune AFTER INSERT ON changes WHEN new.seq % 1000 = 0
    BEGIN DELETE FROM changes WHERE seq <= new.seq - 10000; END;
  CREATE TRIGGER memories_changes_ai AFTER INSERT ON memories
    BEGIN INSERT INTO changes(rid) VALUES (new.rid); END;
  CREATE TRIGGER memories_changes_ad AFTER DELETE ON memories
    BEGIN INSERT INTO changes(rid) VALUES (old.rid); END;
  CREATE TRIGGER memories_changes_au AFTER UPDATE OF text, session, content_hash ON memories
    BEGIN INSERT INTO changes(rid) VALUES (new.rid); END;
  CREATE TRIGGER embeddings_changes_ai AFTER INSERT ON embeddings
    BEGIN INSERT INTO changes(rid) VALUES (new.rid); END;
  CREATE TRIGGER embeddings_changes_ad AFTER DELETE ON embeddings
    BEGIN INSERT INTO changes(rid) VALUES (old.rid); END;
  CREATE TRIGGER embeddings_changes_au AFTER UPDATE ON embeddings
    BEGIN INSERT INTO changes(rid) VALUES (new.rid); END;
  CREATE TABLE usage_folded (
    rid INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    event TEXT NOT NULL,
    count INTEGER NOT NULL,
    decayed REAL NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (rid, event)
  ) WITHOUT ROWID;
  CREATE INDEX usage_at ON usage(at);
  `,
  // Usage other devices recorded (what `@anamnesis/sync` applies through `setDeviceUsage`): per
  // memory, device and event kind, the device's own events folded (a count and a decayed sum at
  // a reference time, as usage_folded), replaced whole by each newer summary from that device.
  `
  CREATE TABLE usage_devices (
    rid INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    device TEXT NOT NULL,
    event TEXT NOT NULL,
    count INTEGER NOT NULL,
    decayed REAL NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (rid, device, event)
  ) WITHOUT ROWID;
  `,
  // A batched insert fills both FTS indexes itself (store.ts, insertMemories): each text's lexical
  // text computed once in JavaScript, instead of the trigger calling anamnesis_lexical twice and
  // anamnesis_site twice per row (in SQLite-WASM each call copies its argument out of wasm and
  // its result back in: with the computing itself a fifth of an ingest's time in Chromium). The
  // trigger stays for every other insert (one row at a time, and a process of an earlier version
  // still writing when this one migrated the file): it fires unless the `meta` row
  // INSERT_INDEXES_FTS exists, which insertMemories holds only inside its own transaction.
  `
  DROP TRIGGER memories_ai;
  CREATE TRIGGER memories_ai AFTER INSERT ON memories
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'insert_indexes_fts')
  BEGIN
    INSERT INTO memories_fts(rowid, text, tags, site)
      VALUES (new.rid, anamnesis_lexical(new.text), new.tags, anamnesis_site(new.meta));
    INSERT INTO memories_words(rowid, words)
      VALUES (new.rid, anamnesis_lexical(new.text) || ' ' || new.tags || ' ' || anamnesis_site(new.meta));
  END;
  `,
  // The snapshot parts' int8 copy before their float32 rows in each record, so an open that reads
  // only the int8 rows (vector-snapshot.ts, readSnapshot) stops reading a part's pages where they
  // end: SQLite reaches a column by walking the record's overflow pages from its start. The parts
  // are dropped, not copied (a copy would take their 52 MB at 100k memories through SQLite-WASM's
  // heap, which never shrinks): the next open reads the rows, and the parts are written again
  // behind the writes or at close. The triggers name the table, not its columns: they stay.
  `
  DROP TABLE vector_snapshot;
  CREATE TABLE vector_snapshot (
    last_rid INTEGER PRIMARY KEY,
    model TEXT NOT NULL,
    format INTEGER NOT NULL,
    n_rows INTEGER NOT NULL,
    rids BLOB NOT NULL,
    quantized BLOB NOT NULL,
    vectors BLOB NOT NULL
  );
  `,
  // The memories with any `selected` or `used` event, read by recall once until the store changes
  // (recall-legs.ts, usageScores): a partial index on each usage table, so that read costs the
  // feedback events only, not every `retrieved` event (most of the usage tables' rows).
  `
  CREATE INDEX usage_feedback ON usage(rid) WHERE event IN ('selected', 'used');
  CREATE INDEX usage_folded_feedback ON usage_folded(rid) WHERE event IN ('selected', 'used');
  CREATE INDEX usage_devices_feedback ON usage_devices(rid) WHERE event IN ('selected', 'used');
  `,
  // Text removals counted, so that forgotten text is purged from the file (secure-delete.ts).
  COUNT_REMOVALS,
  // Pinned memories (`Engine.pin`): a row per pinned memory, gone with it. A table of its own
  // rather than a column of `memories`: pinning writes no memory row (no change-log entry, no
  // FTS trigger), recall reads the pinned set whole in one small read, and the migration is
  // idempotent (`IF NOT EXISTS`), as an `ALTER TABLE … ADD COLUMN` run twice is not.
  `
  CREATE TABLE IF NOT EXISTS pins (
    rid INTEGER PRIMARY KEY REFERENCES memories(rid) ON DELETE CASCADE
  );
  `,
  // The relations each memory states a value of (where one lives, works, who their dentist is:
  // `relationsOf` in @anamnesis/ranking), so that a write finds the older memories its text may
  // supersede by a lookup of each relation's most recent ones (writes/supersession.ts) instead of
  // a scan of every vector and an FTS5 query over every memory naming the relation's words. Kept
  // by triggers (RELATIONS_SQL_FUNCTION, on every connection; a batched insert fills it itself, as
  // it fills the FTS indexes: the insert trigger is skipped while INSERT_INDEXES_FTS is held);
  // gone with the memory.
  `
  CREATE TABLE IF NOT EXISTS relation_mentions (
    relation TEXT NOT NULL,
    rid INTEGER NOT NULL REFERENCES memories(rid) ON DELETE CASCADE,
    PRIMARY KEY (relation, rid)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS relation_mentions_rid ON relation_mentions(rid);
  INSERT OR IGNORE INTO relation_mentions(relation, rid)
    SELECT r.value, m.rid FROM memories m, json_each(anamnesis_relations(m.text)) r;
  CREATE TRIGGER IF NOT EXISTS memories_relations_ai AFTER INSERT ON memories
    WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = 'insert_indexes_fts')
  BEGIN
    INSERT OR IGNORE INTO relation_mentions(relation, rid)
      SELECT value, new.rid FROM json_each(anamnesis_relations(new.text));
  END;
  CREATE TRIGGER IF NOT EXISTS memories_relations_au AFTER UPDATE OF text ON memories BEGIN
    DELETE FROM relation_mentions WHERE rid = old.rid;
    INSERT OR IGNORE INTO relation_mentions(relation, rid)
      SELECT value, new.rid FROM json_each(anamnesis_relations(new.text));
  END;
  `,
];

/** The SQL function the relation triggers call: a text's relations, as a JSON array. */
export const RELATIONS_SQL_FUNCTION = 'anamnesis_relations';

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * SQLite's page cache on OPFS by default: up to 64 MB (seed 002), filled by what recalls read (the
 * FTS index, the rows); an engine may size it otherwise (`pageCacheMb`). The bulk read of the
 * stored vectors at open goes through {@link BULK_READ_PAGE_CACHE} instead, so 40 MB of vector
 * pages at 100k memories never fill it (wasm memory never shrinks).
 */
export const DEFAULT_PAGE_CACHE_MB = 64;

/**
 * SQLite's page cache of a file store by default: 16 MB. The operating system keeps the file's
 * pages in its own cache, so SQLite's holds little a read would not get in microseconds; at 64 MB
 * a fresh Node process holding a 100k-memory store grew to 259 MB after 100 recalls, at 16 MB to
 * 207 MB, recall p50 3.06 against 3.15 ms (2026-12-07, plain Node 20, this project's machine).
 */
export const FILE_PAGE_CACHE_MB = 16;

/** The page cache a store opens with: the caller's `pageCacheMb`, or its storage's default. */
export function pageCacheMbOf(options: { storage?: string; pageCacheMb?: number }): number {
  return (
    options.pageCacheMb ?? (options.storage === 'file' ? FILE_PAGE_CACHE_MB : DEFAULT_PAGE_CACHE_MB)
  );
}

/** The pragma that caps SQLite's page cache at `mb` megabytes (a negative `cache_size` is KiB). */
export function pageCachePragma(mb: number): string {
  return `PRAGMA cache_size = -${Math.round(mb * 1024)}`;
}

/** The page cache while a bulk read streams through pages read once: 2 MB. */
const BULK_READ_PAGE_CACHE = 'PRAGMA cache_size = -2048';

/**
 * Runs `read` on the small bulk-read page cache ({@link BULK_READ_PAGE_CACHE}), then restores the
 * store's own of `pageCacheMb` (when its promise settles, for an asynchronous read): pages read once
 * (the stored vectors at open, ~40 MB at 100k memories; a dedup rebuild's rows; the stored vectors
 * a snapshot part copies) do not fill the cache, whose memory would stay (a WebAssembly memory
 * never shrinks). For a store on OPFS: a memory or file store is in memory already.
 */
export function bulkRead<T>(db: Database, pageCacheMb: number, read: () => T): T {
  const restore = () => db.exec(pageCachePragma(pageCacheMb));
  db.exec(BULK_READ_PAGE_CACHE);
  let out: T;
  try {
    out = read();
  } catch (e) {
    restore();
    throw e;
  }
  if (out instanceof Promise) return out.finally(restore) as T;
  restore();
  return out;
}

/**
 * Applies pragmas for the backend (on OPFS a page cache of `pageCacheMb`) and runs pending
 * migrations in one transaction.
 */
export function migrate(
  db: Database,
  backend: 'opfs' | 'memory' | 'file',
  pageCacheMb = DEFAULT_PAGE_CACHE_MB,
): number {
  db.exec('PRAGMA foreign_keys = ON');
  db.exec('PRAGMA temp_store = MEMORY');
  // The FTS and relation triggers call them: registered on every connection that writes memories.
  const pure = { deterministic: true, innocuous: true } as const;
  db.createFunction(
    LEXICAL_SQL_FUNCTION,
    (_ctx, text) => lexicalText(typeof text === 'string' ? text : ''),
    pure,
  );
  db.createFunction(
    SITE_SQL_FUNCTION,
    (_ctx, meta) => siteWordsOfMeta(typeof meta === 'string' ? meta : ''),
    pure,
  );
  db.createFunction(
    RELATIONS_SQL_FUNCTION,
    (_ctx, text) => JSON.stringify(relationsOf(typeof text === 'string' ? text : '')),
    pure,
  );
  if (backend === 'file') {
    // Native SQLite on disk: the page cache holds what recalls read (the file is not in memory).
    db.exec(pageCachePragma(pageCacheMb));
  }
  if (backend === 'opfs') {
    // opfs-sahpool has no shared memory, so no WAL: a truncated rollback journal keeps writes
    // atomic when the worker is killed; a 64 MB page cache by default, as in seed 002.
    db.exec('PRAGMA journal_mode = TRUNCATE');
    db.exec('PRAGMA synchronous = NORMAL');
    db.exec(pageCachePragma(pageCacheMb));
    // The pool holds its files exclusively anyway; without this every read transaction
    // re-validates the page cache against the file (about 2 ms per call instead of 0.3).
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
  }
  const current = Number(db.selectValue('PRAGMA user_version') ?? 0);
  if (current > SCHEMA_VERSION) {
    throw new AnamnesisError(
      'UNSUPPORTED',
      `the store has schema version ${current}; this version of anamnesis reads up to ${SCHEMA_VERSION}`,
    );
  }
  if (current < SCHEMA_VERSION) {
    transaction(db, 'migrating the store', () => {
      // Read again under the write lock: another process may have migrated the file meanwhile.
      const start = Number(db.selectValue('PRAGMA user_version') ?? 0);
      for (let v = start; v < SCHEMA_VERSION; v++) db.exec(MIGRATIONS[v]!);
      if (start < SCHEMA_VERSION) db.exec(`PRAGMA user_version = ${SCHEMA_VERSION}`);
    });
  }
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS_INSTANCES} USING fts5vocab(main, memories_fts, 'instance');
     CREATE VIRTUAL TABLE IF NOT EXISTS ${FTS_TOKENS} USING fts5vocab(main, memories_fts, 'row');`,
  );
  // forgotten text is overwritten, and leaves the lexical indexes where the build allows it
  setUpForgetting(db);
  return SCHEMA_VERSION;
}
