import { describe, expect, it } from 'vitest';
import { migrate } from '../src/store/schema.ts';
import { WasmReader, type Reader } from '../src/store/reader.ts';
import { loadSqlite } from '../src/store/sqlite.ts';
import type { Database } from '../src/store/database.ts';
import { parseQuery } from '../src/recall/query/parse.ts';
import { resolveQuery } from '../src/recall/query/resolve.ts';
import { WordsMemo } from '../src/recall/query/words-memo.ts';

const TEXTS = [
  'pancake recipe with buttermilk',
  'pancakes on sunday morning',
  'panther sighting near the park',
  'passport renewal appointment',
  'restaurant booking for friday',
  'restaurant review: the pasta was cold',
  'parking permit for the new car',
];

/** A store of the texts, and a reader that counts its reads of the vocabulary. */
async function store(): Promise<{ db: Database; read: Reader; vocabReads: () => number }> {
  const sqlite3 = await loadSqlite();
  const db = new sqlite3.oo1.DB(':memory:', 'c') as unknown as Database;
  migrate(db, 'memory');
  TEXTS.forEach((text, i) =>
    db.exec({
      sql: `INSERT INTO memories (id, text, kind, tags, meta, importance, created_at, updated_at, content_hash)
            VALUES (?, ?, 'note', '[]', '{}', 0.5, 0, 0, ?)`,
      bind: [`m${i}`, text, `h${i}`],
    }),
  );
  const inner = new WasmReader(db as never, sqlite3, 16);
  let reads = 0;
  const count = (sql: string) => {
    if (sql.includes('memories_vocab')) reads++;
  };
  const read: Reader = {
    all: (sql, params, map) => (count(sql), inner.all(sql, params, map)),
    each: (sql, params, visit) => {
      count(sql);
      inner.each(sql, params, visit);
    },
    close: () => inner.close(),
  };
  return { db, read, vocabReads: () => reads };
}

/** The query's slots read against the store, typed (the last word still being typed) or not. */
const resolve = (read: Reader, query: string, kept?: WordsMemo, typing = true) =>
  resolveQuery(read, query, parseQuery(query, typing), () => false, kept);

describe("the store's words kept by prefix", () => {
  it('answers as a fresh read, and reads the vocabulary once for a prefix and the longer ones typed after it', async () => {
    const { db, read, vocabReads } = await store();
    try {
      const kept = new WordsMemo();
      // typed letter by letter: "pa" is read, then "pan", "panc", "pancak" come from its words
      for (const query of ['pa', 'pan', 'panc', 'pancak', 'panc']) {
        expect(resolve(read, query, kept)).toEqual(resolve(read, query));
      }
      const before = vocabReads();
      for (const query of ['pa', 'pan', 'panc', 'pancak']) resolve(read, query, kept);
      expect(vocabReads()).toBe(before);
      // a correction reads the words of the first letters once, then keeps them
      const typo = 'restaurnt';
      expect(resolve(read, typo, kept, false)).toEqual(resolve(read, typo, undefined, false));
      expect(resolve(read, typo, kept, false)[0]!.correction).toBe('restaurant');
      const after = vocabReads();
      resolve(read, typo, kept, false);
      expect(vocabReads()).toBe(after);
    } finally {
      db.close();
    }
  });

  it('two words typed apart are looked up joined once: "park ing" reads "parking" as the store holds it, then from memory', async () => {
    const { db, read, vocabReads } = await store();
    try {
      const kept = new WordsMemo();
      for (const query of ['park ing permit', 'pass port', 'rest aurant booking']) {
        const fresh = resolve(read, query, undefined, false);
        expect(resolve(read, query, kept, false)).toEqual(fresh);
        const before = vocabReads();
        expect(resolve(read, query, kept, false)).toEqual(fresh);
        expect(vocabReads()).toBe(before); // the pairs' lookups kept, found or not
      }
      const joined = resolve(read, 'park ing permit', kept, false);
      expect(joined[0]!.terms).toContain('"parking"');
      expect(kept.holds(read, 'parking')).toBe(true);
      expect(kept.holds(read, 'parkingpermit')).toBe(false);
    } finally {
      db.close();
    }
  });

  it('keeps no more words than its capacity: past it, it starts again empty', async () => {
    const { db, read, vocabReads } = await store();
    try {
      const kept = new WordsMemo(4);
      const fresh = kept.beginning(read, 'pa').map((w) => w.term);
      expect(fresh).toHaveLength(7); // more than it keeps: read each time
      expect(kept.beginning(read, 'pa').map((w) => w.term)).toEqual(fresh);
      expect(vocabReads()).toBe(2);
      for (const prefix of ['su', 'bo', 'ne', 'su', 'bo', 'ne']) kept.beginning(read, prefix);
      expect(vocabReads()).toBe(5); // 1 + 1 + 2 words: all kept
      kept.beginning(read, 'pe'); // a fifth word: the memo starts again with it
      kept.beginning(read, 'pe');
      kept.beginning(read, 'su');
      expect(vocabReads()).toBe(7);
    } finally {
      db.close();
    }
  });
});
