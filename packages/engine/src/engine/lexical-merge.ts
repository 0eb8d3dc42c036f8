import { QuietSteps } from '../store/quiet-steps.ts';
import type { Database } from '../store/database.ts';
import { transaction } from '../store/sqlite.ts';
import type { EngineStats } from '../types.ts';

/**
 * Quiet time (ms) after the last call before a merge step, and between the steps while calls
 * come.
 */
const LEXICAL_MERGE_IDLE_MS = 2000;

/** Index pages a step merges at most (FTS5's `'merge'` command with a negative count). */
const MERGE_PAGES = 400;

/**
 * Changes written since the last merge (the change log's sequence: a memory's insert writes two,
 * its row and its vector) before the next is due: at least this many, and at least half of those
 * written before it (so each merge rewrites the indexes once for as much again as they held).
 */
const MERGE_MIN_CHANGES = 2000;

/** The `meta` key holding the change log's sequence when the last merge finished. */
const MERGED_AT = 'lexical_merged_seq';

/** The change log's sequence now. */
const CHANGES_SEQ = "SELECT coalesce(max(seq), 0) FROM sqlite_sequence WHERE name = 'changes'";

/** A step of the merge of each lexical index (FTS5 table), `?` the pages: negative, any segments. */
const MERGE_STEPS = [
  "INSERT INTO memories_fts(memories_fts, rank) VALUES ('merge', ?)",
  "INSERT INTO memories_words(memories_words, rank) VALUES ('merge', ?)",
] as const;

/** `EngineStats.lexicalMerge` of the store: changes since the last merge, and whether one is due. */
export function lexicalMergeState(db: Database): EngineStats['lexicalMerge'] {
  const now = Number(db.selectValue(CHANGES_SEQ));
  const merged = Number(db.selectValue('SELECT value FROM meta WHERE key = ?', [MERGED_AT]) ?? 0);
  const changesSince = Math.max(0, now - merged);
  return { changesSince, due: changesSince >= Math.max(MERGE_MIN_CHANGES, merged / 2) };
}

/**
 * The lexical indexes merged into one segment each, behind the engine's calls. FTS5 writes a
 * segment per transaction and merges segments of a size (its `automerge`), so an index filled
 * over many writes is several segments, and each term a recall looks up is looked up in each:
 * at 100,000 memories in Node a recall took ~15 % longer on six segments than on one.
 * Once enough was written since the last merge ({@link lexicalMergeState}), steps of FTS5's
 * `'merge'` command (each its own transaction, a few hundred index pages) run while the engine is
 * quiet, until neither index has segments left to merge; the sequence of the change log is then
 * recorded. A call waits for one step at most; an interrupted merge (a call, a close, a killed
 * worker) leaves whole segments and goes on at the next quiet spell. Nothing a recall reads
 * changes: the same rows, terms and counts, in fewer segments. `busy`: whether a call of the
 * engine is in flight (no step runs then).
 */
export function lexicalMerge(db: Database, busy: () => boolean): QuietSteps {
  return new QuietSteps(() => mergeStep(db), LEXICAL_MERGE_IDLE_MS, busy);
}

/** One step of the merge, in one transaction, if one is due; returns whether steps remain. */
function mergeStep(db: Database): boolean {
  if (!lexicalMergeState(db).due) return false;
  return transaction(db, 'merging the lexical index', () => {
    let merged = false;
    for (const step of MERGE_STEPS) {
      const before = Number(db.selectValue('SELECT total_changes()'));
      db.exec({ sql: step, bind: [-MERGE_PAGES] });
      // FTS5: a difference of 2 or more means the command merged something
      if (Number(db.selectValue('SELECT total_changes()')) - before >= 2) merged = true;
    }
    if (merged) return true;
    db.exec({
      sql: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)',
      bind: [MERGED_AT, String(db.selectValue(CHANGES_SEQ))],
    });
    return false;
  });
}
