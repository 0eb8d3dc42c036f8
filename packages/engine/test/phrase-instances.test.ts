/**
 * A one-word phrase's scores computed from its instances and the memories' lengths kept in
 * memory (`recall/phrase-instances.ts`, `recall/doc-lengths.ts`) against FTS5's own `bm25()`: the
 * same values to the last bit, with any column weights, on generated stores with tags and pages,
 * and still after memories are added, edited and deleted once the lengths were read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DocLengths } from '../src/recall/doc-lengths.ts';
import { matchMemo, phraseCount } from '../src/recall/match.ts';
import { columnWeights, instanceScores } from '../src/recall/phrase-instances.ts';
import { phraseToken } from '../src/recall/phrase-key.ts';
import { topBm25 } from '../src/recall/top-bm25.ts';
import type { Reader } from '../src/store/reader.ts';
import { insertMemory, recordingReader, textStore } from './helpers.ts';

/** Words, some of them forms of one stem (`walk`, `walks`, `walking`: one token). */
const VOCABULARY = [
  'walk',
  'walks',
  'walking',
  'garden',
  'gardens',
  'rain',
  'official',
  'officials',
  'letter',
  'river',
  'quiet',
  'harbour',
];
const CALLS = [
  'bm25(memories_fts, 1.0, 0.5, 0.3)',
  'bm25(memories_fts, 1.0, 0.5, 2.0)',
  'bm25(memories_fts)',
  'bm25(memories_fts, 0.25, 3.0)',
];

/** Words drawn from the vocabulary, the first ones more often. */
const words = (min: number, max: number) =>
  fc
    .array(fc.nat({ max: 10_000 }), { minLength: min, maxLength: max })
    .map((draws) =>
      draws.map((d) => VOCABULARY[Math.floor(VOCABULARY.length * (d / 10_001) ** 2)]!).join(' '),
    );

/** A memory: its text, tags, and the address of a page (whose words the `site` column holds). */
const memory = fc.record({
  text: words(0, 30),
  tags: words(0, 3),
  url: fc.option(
    words(1, 3).map((w) => `https://${w.split(' ')[0]}.example/${w.replaceAll(' ', '-')}`),
  ),
});
type Memory = typeof memory extends fc.Arbitrary<infer T> ? T : never;

/** A change after the lengths were read: a memory added, one edited (text, tags, page), one deleted. */
const change = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), memory }),
  fc.record({ kind: fc.constant('edit' as const), at: fc.nat(), memory }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
);

type Db = Awaited<ReturnType<typeof textStore>>['db'];

let next = 0;
function add(db: Db, m: Memory): void {
  next++;
  insertMemory(db, {
    id: `m${next}`,
    text: m.text,
    tags: JSON.stringify(m.tags ? m.tags.split(' ') : []),
    meta: JSON.stringify(m.url ? { url: m.url } : {}),
  });
}

/** The rids of the memories the store holds. */
const rids = (read: Reader) =>
  read.all('SELECT rid FROM memories ORDER BY rid', [], (c) => c.num(0));

/** FTS5's `bm25()` of the phrase on every memory it matches, by ascending rid. */
function fts5(read: Reader, phrase: string, call: string) {
  return read.all(
    `SELECT rowid, ${call} FROM memories_fts WHERE memories_fts MATCH ? ORDER BY rowid`,
    [phrase],
    (c) => [c.num(0), c.num(1)] as const,
  );
}

/** Every word's scores from its instances equal FTS5's, bit for bit, under every call. */
function expectScoresOfFts5(read: Reader, lengths: DocLengths, generation: object): void {
  lengths.owe(Infinity);
  const current = lengths.current(read, generation, rids(read).length);
  expect(current).toBeDefined();
  for (const call of CALLS)
    for (const word of VOCABULARY) {
      const phrase = `"${word}"`;
      const truth = fts5(read, phrase, call);
      if (truth.length === 0) continue;
      const computed = instanceScores(
        read,
        phraseToken(phrase)!,
        truth.length,
        columnWeights(call)!,
        current!,
      );
      expect(computed, `${word} under ${call}`).toBeDefined();
      // the word's memories counted among the index's tokens: as many as it matches
      expect(phraseCount(read, matchMemo(), phrase)).toBe(truth.length);
      const pairs = Array.from(computed!.rids, (rid, j) => [rid, computed!.bm25[j]!] as const);
      // toEqual tells 0 from -0 and compares numbers with Object.is: the same bits
      expect(pairs, `${word} under ${call}`).toEqual(truth);
    }
}

describe("a one-word phrase's bm25() from its instances", () => {
  it("equals FTS5's bm25() to the last bit, with any weights, through adds, edits and deletes", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(memory, { minLength: 1, maxLength: 80 }),
        fc.array(fc.array(change, { minLength: 1, maxLength: 6 }), { maxLength: 4 }),
        async (memories, batches) => {
          const { db, read } = await textStore([]);
          try {
            for (const m of memories) add(db, m);
            const lengths = new DocLengths();
            expectScoresOfFts5(read, lengths, {});
            for (const batch of batches) {
              // one transaction each: FTS5 flushes a segment (a new origin) at each commit
              db.exec('BEGIN');
              for (const c of batch) {
                const held = rids(read);
                if (c.kind === 'add') add(db, c.memory);
                else if (held.length === 0) continue;
                else if (c.kind === 'delete')
                  db.exec({
                    sql: 'DELETE FROM memories WHERE rid = ?',
                    bind: [held[c.at % held.length]!],
                  });
                else
                  db.exec({
                    sql: 'UPDATE memories SET text = ?, tags = ?, meta = ? WHERE rid = ?',
                    bind: [
                      c.memory.text,
                      JSON.stringify(c.memory.tags ? c.memory.tags.split(' ') : []),
                      JSON.stringify(c.memory.url ? { url: c.memory.url } : {}),
                      held[c.at % held.length]!,
                    ],
                  });
              }
              db.exec('COMMIT');
              // the lengths caught up, and lengths read afresh, give FTS5's scores
              expectScoresOfFts5(read, lengths, {});
              expectScoresOfFts5(read, new DocLengths(), {});
            }
          } finally {
            db.close();
          }
        },
      ),
      { numRuns: 40, interruptAfterTimeLimit: 90_000, markInterruptAsFailure: true },
    );
  }, 120_000);

  it('gives no scores where it lacks a matched memory’s length, rather than wrong ones', async () => {
    const { db, read } = await textStore(['rain on the river', 'quiet rain']);
    try {
      const lengths = new DocLengths();
      lengths.owe(Infinity);
      const stale = lengths.current(read, {}, 2)!;
      add(db, { text: 'rain again', tags: '', url: null });
      const weights = columnWeights(CALLS[0]!)!;
      expect(instanceScores(read, 'rain', 3, weights, stale)).toBeUndefined();
      // nor where the count given is not the index's
      expect(instanceScores(read, 'rain', 2, weights, stale)).toBeUndefined();
      expect(instanceScores(read, 'rain', 4, weights, stale)).toBeUndefined();
      lengths.owe(Infinity);
      expect(instanceScores(read, 'rain', 3, weights, lengths.current(read, {}, 3)!)).toBeDefined();
    } finally {
      db.close();
    }
  });

  it('reads the lengths only once the matches scored without them would have paid for it', async () => {
    const { db, read } = await textStore(Array.from({ length: 64 }, () => 'rain'));
    try {
      const lengths = new DocLengths();
      const first = {};
      lengths.owe(15);
      expect(lengths.current(read, first, 64)).toBeUndefined(); // a quarter of the store: 16
      lengths.owe(1);
      expect(lengths.current(read, first, 64)?.rows).toBe(64);
      // a new generation: caught up once 64 / 16 more matches were scored without them
      const second = {};
      lengths.owe(3);
      expect(lengths.current(read, second, 64)).toBeUndefined();
      lengths.owe(1);
      expect(lengths.current(read, second, 64)?.tokens[1]).toBe(1);
    } finally {
      db.close();
    }
  });

  it('leaves the pruned top k as it is, and reads instances instead of bm25() once the lengths pay', async () => {
    const texts = Array.from({ length: 1500 }, (_, i) =>
      [
        VOCABULARY[i % 3],
        VOCABULARY[3 + (i % 4)],
        VOCABULARY[7 + (i % 5)],
        'x'.repeat(1 + (i % 7)),
      ].join(' '),
    );
    const { db, read } = await textStore(texts);
    try {
      const query = ['"walk"', '"gardens"', '"letter"', '"rain"'];
      const plain = topBm25(read, matchMemo(), query, CALLS[0]!, 10);
      const memo = matchMemo();
      memo.lengths.owe(Infinity);
      const { reader, calls } = recordingReader(read);
      expect(topBm25(reader, memo, query, CALLS[0]!, 10)).toEqual(plain);
      expect(calls.some((c) => c.sql.includes('memories_fts_instances'))).toBe(true);
      expect(calls.some((c) => c.how === 'each' && c.sql.includes('bm25('))).toBe(false);
    } finally {
      db.close();
    }
  });
});
