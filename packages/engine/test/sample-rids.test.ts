import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { matchMemo, sampleRids } from '../src/recall/match.ts';
import type { Database } from '../src/store/database.ts';
import { WasmReader } from '../src/store/reader.ts';
import { migrate } from '../src/store/schema.ts';
import { loadSqlite } from '../src/store/sqlite.ts';

/** The sample as a window over the table in rid order gives it (every step-th rid, 1-based). */
const BY_WINDOW =
  'SELECT rid FROM (SELECT rid, row_number() OVER (ORDER BY rid) AS i FROM memories) WHERE i % ? = 0 LIMIT 256';

describe("the store's sample of rids", () => {
  it('is every step-th rid in rid order, as a window over the table gives it, after deletes', async () => {
    const sqlite3 = await loadSqlite();
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 1500 }),
        fc.array(fc.integer({ min: 1, max: 1500 }), { maxLength: 600 }),
        async (n, deleted) => {
          const db = new sqlite3.oo1.DB(':memory:', 'c') as unknown as Database;
          try {
            migrate(db, 'memory');
            db.exec('BEGIN');
            for (let i = 0; i < n; i++) {
              db.exec({
                sql: `INSERT INTO memories (id, text, kind, tags, meta, importance, created_at, updated_at, content_hash)
                      VALUES (?, ?, 'note', '[]', '{}', 0.5, ?, ?, ?)`,
                // times out of rid order: the index read first is not in rid order
                bind: [`m${i}`, `text ${i}`, (i * 7919) % 1009, (i * 104729) % 997, `h${i}`],
              });
            }
            for (const rid of deleted)
              db.exec({ sql: 'DELETE FROM memories WHERE rid = ?', bind: [rid] });
            db.exec('COMMIT');
            const read = new WasmReader(db as never, sqlite3, 16);
            const count = Number(db.selectValue('SELECT count(*) FROM memories'));
            const step = Math.max(1, Math.floor(count / 256));
            const expected = read.all(BY_WINDOW, [step], (c) => c.num(0));
            expect(sampleRids(read, matchMemo())).toEqual(expected);
            // the same from the rids something in memory holds (the vector index), in any order,
            // and read from the store when it does not hold them all
            const rids = read.all('SELECT rid FROM memories ORDER BY created_at', [], (c) =>
              c.num(0),
            );
            expect(sampleRids(read, matchMemo(), () => Int32Array.from(rids))).toEqual(expected);
            const fewer = () => Int32Array.from(rids.slice(1));
            expect(sampleRids(read, matchMemo(), fewer)).toEqual(expected);
            read.close();
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
