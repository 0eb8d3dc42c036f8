#!/usr/bin/env node
/**
 * A mutation pass over the engine's invariants (not in CI: it runs the engine's tests once per
 * mutant, tens of minutes): each cache or memo clear and each guard of the write path is deleted
 * (or its condition made false) in turn, the engine test files that should notice are run, and
 * the source is restored. A mutant that no test kills is a hole in the tests.
 *
 *   node scripts/mutation-pass.mjs [--only id,id] [--tests file,file] [--write docs/mutation-pass.md] [--list]
 *
 * Prints one line per mutant (killed by which test, or SURVIVED) and a markdown table; `--write`
 * replaces the table in that file between `<!-- mutation-pass:begin -->` and
 * `<!-- mutation-pass:end -->`. Exits 1 when a mutant survived or the tests fail unmutated.
 * Restores every file even when interrupted. `--list` only checks that every mutant applies and
 * prints where. `--tests` runs those test files for every mutant instead of its own list: whether
 * one file alone kills a mutant (`--only bump-generation --tests
 * packages/engine/test/cache-invalidation.test.ts`).
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const T = (name) => `packages/engine/test/${name}.test.ts`;
const CACHE_TESTS = [
  T('cache-invalidation'),
  T('recall-memo'),
  T('engine'),
  T('persistence'),
  T('dedup-index'),
];
/** The behaviour of recall after each kind of write (issue 42): results, not counters. */
const RECALL_TESTS = [T('cache-invalidation'), T('recall-memo')];
/** The same through the client (the worker's engine, a follower tab). */
const CLIENT_RECALL = 'packages/client/test/recall-after-write.test.ts';
const WRITE_TESTS = [
  T('write-path'),
  T('concurrency'),
  T('engine'),
  T('persistence'),
  T('store-insert'),
];
const VALIDATE_TESTS = [T('validate'), T('engine'), T('hardening'), T('injection')];

/**
 * The mutants. `find` must occur exactly once in `file`; it is replaced by `replace` (default:
 * nothing, i.e. the statement is deleted).
 */
const MUTANTS = [
  // Caches and memos: what recall keeps must be dropped whenever the rows change.
  {
    id: 'bump-generation',
    file: 'packages/engine/src/engine.ts',
    find: '  #bump(change: { kind: ChangeKind; ids: readonly string[] }): void {\n    this.#generation++;\n',
    replace: '  #bump(change: { kind: ChangeKind; ids: readonly string[] }): void {\n',
    what: 'a committed write no longer invalidates cached recall results',
    tests: [...CACHE_TESTS, CLIENT_RECALL],
  },
  {
    id: 'bump-memo-clear',
    file: 'packages/engine/src/engine.ts',
    find: '    this.#generation++;\n    this.#memo.clear();\n    this.#parts.schedule();\n',
    replace: '    this.#generation++;\n    this.#parts.schedule();\n',
    what: "a committed write no longer clears recall's per-memory memo",
    tests: CACHE_TESTS,
  },
  {
    id: 'bump-vector-parts',
    file: 'packages/engine/src/engine.ts',
    find: '    this.#memo.clear();\n    this.#parts.schedule();\n    this.#changed(change);\n',
    replace: '    this.#memo.clear();\n    this.#changed(change);\n',
    what: 'a committed write no longer schedules the snapshot parts of the stored vectors',
    tests: [T('vector-snapshot'), T('persistence')],
  },
  {
    id: 'retrieved-memo-clear',
    file: 'packages/engine/src/engine.ts',
    find: '    this.#retrieved = new RetrievedEvents(io.db, () => this.#memo.usageChanged()); // access counts changed\n',
    replace: '    this.#retrieved = new RetrievedEvents(io.db, () => undefined);\n',
    what: 'written retrieval counts no longer clear the memo (stale access counts)',
    tests: CACHE_TESTS,
  },
  {
    id: 'model-ready-generation',
    file: 'packages/engine/src/engine.ts',
    find: '    this.#timings.vectorsMs = vectorsMs;\n    this.#generation++;\n',
    replace: '    this.#timings.vectorsMs = vectorsMs;\n',
    what: 'a model that becomes ready no longer drops the lexical-only cached recalls',
    tests: [T('model-loading'), T('engine')],
  },
  {
    id: 'model-ready-closed',
    file: 'packages/engine/src/engine/model.ts',
    find: "            if (ctx.closed()) throw new AnamnesisError('CLOSED');\n",
    what: 'a model arriving after close is still loaded into the closed store',
    tests: [T('model-loading')],
  },
  {
    id: 'rid-memo-capacity',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '      if (this.#values.size + fresh.length > this.#capacity) this.#values.clear();\n',
    what: 'the memo grows without bound',
    tests: [T('recall-memo')],
  },
  {
    id: 'memo-rows-clear',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.rows.clear();\n    this.speakers.clear();\n',
    replace: '    this.speakers.clear();\n',
    what: 'clearing the memo keeps the candidate rows',
    tests: CACHE_TESTS,
  },
  {
    id: 'memo-speakers-clear',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.speakers.clear();\n',
    what: 'clearing the memo keeps the speakers',
    tests: CACHE_TESTS,
  },
  {
    id: 'memo-neighbours-clear',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.neighbours.clear();\n',
    what: 'clearing the memo keeps the session neighbours',
    tests: CACHE_TESTS,
  },
  {
    id: 'memo-match-clear',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.match = matchMemo(this.match.lengths);\n  }\n',
    replace: '  }\n',
    what: "clearing the memo keeps the store's size, its cosine sample and the slots' counts",
    tests: RECALL_TESTS,
  },
  {
    id: 'memo-match-keep-counts',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.match = matchMemo(this.match.lengths);\n  }\n',
    replace:
      '    this.match = { ...matchMemo(this.match.lengths), slotCounts: this.match.slotCounts };\n  }\n',
    what: "clearing the memo keeps each query slot's document count",
    tests: RECALL_TESTS,
  },
  {
    id: 'memo-match-keep-total',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.match = matchMemo(this.match.lengths);\n  }\n',
    replace:
      '    this.match = { ...matchMemo(this.match.lengths), total: this.match.total };\n  }\n',
    what: "clearing the memo keeps the store's size (idf)",
    tests: RECALL_TESTS,
  },
  {
    id: 'memo-match-keep-sample',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.match = matchMemo(this.match.lengths);\n  }\n',
    replace:
      '    this.match = { ...matchMemo(this.match.lengths), sample: this.match.sample };\n  }\n',
    what: "clearing the memo keeps the store's cosine sample (meaning strength)",
    tests: RECALL_TESTS,
  },
  {
    id: 'memo-match-keep-phrases',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.match = matchMemo(this.match.lengths);\n  }\n',
    replace:
      '    this.match = { ...matchMemo(this.match.lengths), phrases: this.match.phrases };\n  }\n',
    what: "clearing the memo keeps the phrases' matches with their bm25()",
    tests: [T('recall-memo')],
  },
  {
    id: 'memo-match-keep-words',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '    this.match = matchMemo(this.match.lengths);\n  }\n',
    replace:
      '    this.match = { ...matchMemo(this.match.lengths), words: this.match.words };\n  }\n',
    what: "clearing the memo keeps the store's words by prefix",
    tests: [T('recall-memo')],
  },
  {
    id: 'memo-usage-keeps-rows',
    file: 'packages/engine/src/recall/rid-memo.ts',
    find: '  usageChanged(): void {\n    this.rows.clear();\n',
    replace: '  usageChanged(): void {\n',
    what: 'written retrieval counts keep the candidate rows (stale access counts)',
    tests: CACHE_TESTS,
  },
  {
    id: 'sample-rids-step',
    file: 'packages/engine/src/recall/match.ts',
    find: '  for (let i = step - 1; i < sorted.length',
    replace: '  for (let i = step; i < sorted.length',
    what: "the store's cosine sample is not every step-th rid in rid order",
    tests: [T('sample-rids')],
  },
  {
    id: 'sample-rids-held-partial',
    file: 'packages/engine/src/recall/match.ts',
    find: '  if (sorted?.length === total) {',
    replace: '  if (sorted !== undefined) {',
    what: "the store's cosine sample is taken from the vector index while it lacks some memories",
    tests: [T('sample-rids')],
  },
  {
    id: 'dedup-build-not-postponed',
    file: 'packages/engine/src/store/quiet-steps.ts',
    find: '    if (this.#timer !== undefined) this.#schedule(this.#idleMs);',
    replace: '',
    what: "steps behind the engine's calls (the Bloom filter's rebuild, the rest of the stored vectors) run between its calls (a first recall queues behind them)",
    tests: [T('dedup-index'), T('quiet-steps')],
  },
  {
    id: 'quiet-steps-while-busy',
    file: 'packages/engine/src/store/quiet-steps.ts',
    find: '      if (this.#busy()) {',
    replace: '      if (false) {',
    what: "a step behind the engine's calls runs inside a call longer than the quiet time",
    tests: [T('quiet-steps')],
  },
  {
    id: 'lazy-row-flag-not-moved',
    file: 'packages/engine/src/vectors/vector-index.ts',
    find: '      if (this.#absent[last] === 1) {',
    replace: '      if (false) {',
    what: 'a delete moves the last row into the hole but not whether its float32 row is still on disk (a search scores the memory the hole left)',
    tests: [T('vector-index-lazy')],
  },
  {
    id: 'lazy-reaching-unread',
    file: 'packages/engine/src/vectors/vector-index.ts',
    find: '    this.#load(more);',
    replace: '',
    what: "rows reached only through their int8 copy's error bound are scored without reading their float32 rows",
    tests: [T('vector-index-lazy')],
  },
  {
    id: 'int8-best-no-fallback',
    file: 'packages/engine/src/vectors/int8-rows.ts',
    find: '      if (rows && rows.length >= m) return topRows(scores, m, { rows });',
    replace: '      if (rows) return topRows(scores, m, { rows });',
    what: 'the head of an int8 search is taken from the rows above a sampled floor even when fewer than it needs reach it',
    tests: [T('int8-rows'), T('vector-index')],
  },
  {
    id: 'int8-above-overflow-kept',
    file: 'packages/engine/src/vectors/int8-rows.ts',
    find: '    return count > ABOVE_MAX ? undefined : this.#i32.slice(out >> 2, (out >> 2) + count);',
    replace: '    return this.#i32.slice(out >> 2, (out >> 2) + Math.min(count, ABOVE_MAX));',
    what: "the kernel's list of rows above a floor is used when more rows reach it than the list holds",
    tests: [T('int8-rows'), T('vector-index')],
  },
  {
    id: 'int8-reaching-cut-unscaled',
    file: 'packages/engine/src/vectors/int8-rows.ts',
    find: '    const t = cut / sq;',
    replace: '    const t = cut;',
    what: "the rows that could reach a search's floor are listed against the cut in cosine units, not the kernel's",
    tests: [T('int8-rows'), T('vector-index')],
  },
  {
    id: 'doc-lengths-no-catch-up',
    file: 'packages/engine/src/recall/doc-lengths.ts',
    find: '      [Math.max(this.#origin, 0)],',
    replace: '      [this.#origin < 0 ? 0 : Number.MAX_SAFE_INTEGER],',
    what: "the memories' lengths are read once and never caught up with memories added or edited since",
    tests: [T('phrase-instances')],
  },
  {
    id: 'doc-lengths-unpaid',
    file: 'packages/engine/src/recall/doc-lengths.ts',
    find: '    if (this.#owed < storeSize * share) return undefined;',
    replace: '',
    what: "the memories' lengths are read at the first search, whatever it costs",
    tests: [T('phrase-instances')],
  },
  {
    id: 'instances-length-rounded-apart',
    file: 'packages/engine/src/recall/phrase-instances.ts',
    find: '(B * length) / mean',
    replace: 'B * (length / mean)',
    what: "a memory's length over the mean is rounded in another order than FTS5's",
    tests: [T('phrase-instances')],
  },
  {
    id: 'lookups-for-many-candidates',
    file: 'packages/engine/src/recall/top-bm25.ts',
    find: '      if (candidates <= lookupsAtMost || bound <= FLOORED) break;',
    replace: '      if (candidates > 0 || bound <= FLOORED) break;',
    what: 'a commoner phrase is looked up in each of many candidates instead of read once for them',
    tests: [T('top-bm25')],
  },
  {
    id: 'token-count-instances',
    file: 'packages/engine/src/recall/match.ts',
    find: '`SELECT doc FROM ${FTS_TOKENS} WHERE term = ?`',
    replace: '`SELECT cnt FROM ${FTS_TOKENS} WHERE term = ?`',
    what: "a word's memories are counted as its occurrences",
    tests: [T('phrase-instances')],
  },
  {
    id: 'insert-guard-missing',
    file: 'packages/engine/src/store/store.ts',
    find: "sql: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, 1)',",
    replace: "sql: 'SELECT ?, 1',",
    what: 'a batched insert fills the FTS indexes and the trigger fills them again',
    tests: [T('store-insert')],
  },
  {
    id: 'insert-index-words-lost',
    file: 'packages/engine/src/store/store.ts',
    find: '    for (const sql of [INSERT_FROM_JSON, ...INDEX_FROM_JSON]) db.exec({ sql, bind: [json] });',
    replace:
      '    for (const sql of [INSERT_FROM_JSON, INDEX_FROM_JSON[0]!]) db.exec({ sql, bind: [json] });',
    what: "a batched insert leaves the words index (the search box's completions) without its rows",
    tests: [T('store-insert')],
  },
  {
    id: 'phrase-key-ignored',
    file: 'packages/engine/src/recall/phrase-key.ts',
    find: '  return token === undefined ? phrase : `\\u0001${token}`;',
    replace: '  return phrase;',
    what: 'forms of one stem ("official", "officials") are read and counted as separate phrases',
    tests: [T('top-bm25')],
  },
  {
    id: 'porter-y-vowel',
    file: 'packages/engine/src/recall/phrase-key.ts',
    find: "(yIsVowel && c === 'y')",
    replace: "c === 'y'",
    what: "the stemmer takes every y for a vowel (FTS5's porter takes it for one after a consonant only)",
    tests: [T('phrase-key')],
  },
  {
    id: 'words-memo-unbounded',
    file: 'packages/engine/src/recall/query/words-memo.ts',
    find: '    if (words.length > this.#capacity) return words;\n',
    replace: '',
    what: 'a prefix with more words than the memo holds is kept anyway',
    tests: [T('resolve-words')],
  },
  {
    id: 'word-neighbours-knows-any-token',
    file: 'packages/engine/src/embedding/word-neighbours.ts',
    find: '    return this.#idOf(word) !== undefined && PLAIN_WORD.test(word);',
    replace: '    return this.#idOf(word) !== undefined;',
    what: 'a word piece or punctuation token counts as a word the model knows',
    tests: [T('word-neighbours'), T('recall')],
  },
  {
    id: 'phrase-max-ignored',
    file: 'packages/engine/src/recall/top-bm25.ts',
    find: '      const most = memo.phrases.most(bm25Call, phrase);',
    replace: '      const most = undefined as number | undefined;',
    what: 'a phrase read before is bounded by its idf, not by its greatest score (the pruned top k reads more)',
    tests: [T('top-bm25')],
  },
  {
    id: 'phrase-max-least',
    file: 'packages/engine/src/recall/phrase-scores.ts',
    find: '    for (let j = 0; j < bm25.length; j++) if (-bm25[j]! > most) most = -bm25[j]!;',
    replace:
      '    for (let j = 0; j < bm25.length; j++) if (-bm25[j]! < most || most === 0) most = -bm25[j]!;',
    what: "a phrase's kept bound is its least score, not its greatest (the pruned top k misses memories)",
    tests: [T('top-bm25')],
  },
  {
    id: 'kept-phrase-looked-up',
    file: 'packages/engine/src/recall/top-bm25.ts',
    find: '    if (memo.phrases.holds(bm25Call, phrase)) {',
    replace: '    if (false) {',
    what: 'a frequent phrase whose matches are kept is read or looked up for the candidates instead of merged',
    tests: [T('top-bm25')],
  },
  {
    id: 'floored-phrase-read',
    file: 'packages/engine/src/recall/top-bm25.ts',
    find: '      if (candidates <= lookupsAtMost || bound <= FLOORED) break;',
    replace: '      if (candidates <= lookupsAtMost) break;',
    what: 'a phrase half the store matches (floored idf) is read for the candidates',
    tests: [T('top-bm25')],
  },
  {
    id: 'scored-for-every-match',
    file: 'packages/engine/src/recall/top-bm25.ts',
    find: 'AND +rowid IN (SELECT value FROM json_each(?))',
    replace: 'AND (+rowid IN (SELECT value FROM json_each(?)) OR 1)',
    what: "a phrase read for the candidates scores every one of its matches (the candidates' filter lost)",
    tests: [T('top-bm25')],
  },
  {
    id: 'coverage-ignores-kept-phrases',
    file: 'packages/engine/src/recall/match.ts',
    find: ' ?? keptUnion(memo, terms);',
    replace: ';',
    what: 'lexical coverage reads a phrase again that the pruned top k kept',
    tests: [T('lexical-coverage')],
  },
  {
    id: 'expansion-keeps-floored',
    file: 'packages/engine/src/recall/recall-legs.ts',
    find: '    phrases = phrases.filter((p) => phraseCount(read, memo, p) < half);',
    replace: '    phrases = phrases.filter((p) => phraseCount(read, memo, p) <= 2 * half);',
    what: 'the expansion leg searches a neighbour half the store holds',
    tests: [T('expansion-leg')],
  },
  {
    id: 'coverage-matches-unkept',
    file: 'packages/engine/src/recall/match.ts',
    find: '    memo.matches.keep(expression, all);\n',
    replace: '',
    what: 'what lexical coverage read whole of an expression is read again by the next query',
    tests: [T('lexical-coverage')],
  },
  {
    id: 'catchup-generation',
    file: 'packages/engine/src/engine.ts',
    find: '    this.#generation++;\n    this.#memo.clear();\n    if (this.#listeners.size > 0',
    replace: '    this.#memo.clear();\n    if (this.#listeners.size > 0',
    what: 'what another process committed does not invalidate cached recall results',
    tests: [T('cache-invalidation'), T('multi-process')],
  },
  {
    id: 'catchup-memo-clear',
    file: 'packages/engine/src/engine.ts',
    find: '    this.#generation++;\n    this.#memo.clear();\n    if (this.#listeners.size > 0',
    replace: '    this.#generation++;\n    if (this.#listeners.size > 0',
    what: "what another process committed does not clear recall's memo",
    tests: [T('cache-invalidation'), T('multi-process')],
  },
  // The vector index and its int8 copy: in-memory state brought up to date after each commit.
  {
    id: 'remember-vector-apply',
    file: 'packages/engine/src/writes/remember.ts',
    find: '      ctx.similarity().apply(\n        inserted,\n        fresh.map((m) => m.text),\n        vectors,\n      );\n',
    what: 'remembered memories are not added to the vector index (not found by meaning)',
    tests: [T('cache-invalidation'), T('engine')],
  },
  {
    id: 'update-vector-apply',
    file: 'packages/engine/src/writes/edits.ts',
    find: '      if (vector) ctx.similarity().apply([row.rid], [row.text], [vector]);\n',
    what: "an updated text's vector does not replace the old one in the index",
    tests: [T('cache-invalidation'), T('engine')],
  },
  {
    id: 'forget-vector-remove',
    file: 'packages/engine/src/writes/edits.ts',
    find: '    apply: (found) => ctx.similarity().remove(found.rids),\n',
    what: "forgotten memories' vectors stay in the index",
    tests: [T('cache-invalidation'), T('engine')],
  },
  {
    id: 'replace-vector-remove',
    file: 'packages/engine/src/writes/remember.ts',
    find: '      if (removed.length > 0) ctx.similarity().remove(removed);\n',
    what: 'memories replaced by rememberMany keep their vectors in the index',
    tests: [T('cache-invalidation'), T('replace')],
  },
  {
    id: 'import-vector-apply',
    file: 'packages/engine/src/engine.ts',
    find: '          this.#model.similarity.apply(r.rids, r.texts, r.vectors);\n',
    what: 'imported memories are not added to the vector index',
    tests: [T('cache-invalidation'), T('roundtrip')],
  },
  {
    id: 'int8-set',
    file: 'packages/engine/src/vectors/vector-index.ts',
    find: '    this.#heap.fill(0, at + this.dims, at + this.#stride);\n    this.#q8?.set(row, this.#heap, at);\n',
    replace: '    this.#heap.fill(0, at + this.dims, at + this.#stride);\n',
    what: "a vector set (added or replaced) leaves the int8 copy's row as it was",
    tests: [T('vector-index')],
  },
  {
    id: 'int8-move',
    file: 'packages/engine/src/vectors/vector-index.ts',
    find: '      this.#q8?.move(last, row);\n',
    what: "a deleted vector's row, refilled by the last one, keeps its old int8 copy",
    tests: [T('vector-index')],
  },
  {
    id: 'int8-reaching-cut',
    file: 'packages/engine/src/vectors/int8-rows.ts',
    find: '      floor - ROUNDING_SLACK - (sq / 2) * this.#maxL1 - this.#maxScale * perRowScale - 1e-9;',
    replace: '      floor - ROUNDING_SLACK;',
    what: 'the int8 search skips rows by their approximate score alone, not by what their own error bound could add',
    tests: [T('vector-index')],
  },
  {
    id: 'tfidf-apply',
    file: 'packages/engine/src/similarity/tfidf-similarity.ts',
    find: '    rids.forEach((rid, i) => this.#index.add({ id: String(rid), text: texts[i]! }));\n',
    what: 'the TF-IDF index does not take written texts until its next refit',
    tests: [T('tfidf'), T('cache-invalidation')],
  },
  {
    id: 'tfidf-remove',
    file: 'packages/engine/src/similarity/tfidf-similarity.ts',
    find: '  remove(rids: readonly number[]): void {\n    for (const rid of rids) this.#index.remove(String(rid));\n',
    replace: '  remove(rids: readonly number[]): void {\n',
    what: 'forgotten memories stay in the TF-IDF index until its next refit',
    tests: [T('tfidf'), T('cache-invalidation')],
  },
  // Snapshots: a snapshot on disk must always match the rows.
  {
    id: 'insert-drop-snapshots',
    file: 'packages/engine/src/writes/remember.ts',
    find: '  const { db } = ctx;\n  ctx.dropSnapshots();\n  const now = ctx.now();\n',
    replace: '  const { db } = ctx;\n  const now = ctx.now();\n',
    what: 'remembering keeps the stale Bloom-filter and vector snapshots',
    tests: [T('dedup-index'), T('vector-snapshot'), T('persistence')],
  },
  {
    id: 'update-drop-snapshots',
    file: 'packages/engine/src/writes/edits.ts',
    find: '      if (fields.text !== undefined || fields.session !== undefined) ctx.dropSnapshots();\n',
    what: 'a new text or session keeps the stale snapshots',
    tests: [T('dedup-index'), T('vector-snapshot'), T('persistence')],
  },
  {
    id: 'forget-drop-snapshots',
    file: 'packages/engine/src/writes/edits.ts',
    find: '      if (found.length > 0) ctx.dropSnapshots();\n',
    what: 'forgetting keeps the stale snapshots',
    tests: [T('dedup-index'), T('vector-snapshot'), T('persistence')],
  },
  {
    id: 'import-drop-snapshots',
    file: 'packages/engine/src/engine.ts',
    find: '        () => this.#ctx.dropSnapshots(),\n',
    replace: '        () => undefined,\n',
    what: 'importing keeps the stale snapshots',
    tests: [T('dedup-index'), T('vector-snapshot'), T('persistence')],
  },
  {
    id: 'remember-dedup-add',
    file: 'packages/engine/src/writes/remember.ts',
    find: '      fresh.forEach((m) => ctx.dedup.add(dedupKey(m.session, m.hash)));\n',
    what: 'remembered texts are not added to the Bloom filter (duplicates slip through)',
    tests: [T('engine'), T('dedup-index'), T('concurrency')],
  },
  {
    id: 'update-dedup-add',
    file: 'packages/engine/src/writes/edits.ts',
    find: '      ctx.dedup.add(dedupKey(row.session, row.contentHash));\n',
    what: 'an updated text is not added to the Bloom filter',
    tests: [T('engine'), T('dedup-index'), T('concurrency')],
  },
  {
    id: 'import-dedup-add',
    file: 'packages/engine/src/engine.ts',
    find: '          for (const key of r.dedupKeys) this.#dedup.add(key);\n',
    what: 'imported texts are not added to the Bloom filter',
    tests: [T('engine'), T('dedup-index'), T('roundtrip')],
  },
  // The write path's guards.
  {
    id: 'run-closed',
    file: 'packages/engine/src/engine.ts',
    find: "    if (this.#closed || this.#closing) return Promise.reject(new AnamnesisError('CLOSED'));\n",
    what: 'a call after close reaches the closed database',
    tests: WRITE_TESTS,
  },
  {
    id: 'run-flush-retrieved',
    file: 'packages/engine/src/engine.ts',
    find: '    if (flushRetrieved && this.#retrieved.pending) this.#retrieved.flush();\n',
    what: 'queued retrieval counts are not written before the next call',
    tests: CACHE_TESTS,
  },
  {
    id: 'queue-closed',
    file: 'packages/engine/src/writes/write-path.ts',
    find: "    for (let attempt = 1; ; attempt++) {\n      if (this.#hooks.closed()) throw new AnamnesisError('CLOSED');\n",
    replace: '    for (let attempt = 1; ; attempt++) {\n',
    what: 'a write reaching the queue after close runs (or is answered from its operation record)',
    tests: WRITE_TESTS,
  },
  {
    id: 'encoded-closed',
    file: 'packages/engine/src/writes/write-path.ts',
    find: "      await plan.encode?.();\n      if (this.#hooks.closed()) throw new AnamnesisError('CLOSED');\n",
    replace: '      await plan.encode?.();\n',
    what: 'a write whose embedding finished after close still commits',
    tests: WRITE_TESTS,
  },
  {
    id: 'operation-replay',
    file: 'packages/engine/src/writes/write-path.ts',
    find: "      if (typeof seen === 'string') return (JSON.parse(seen) as { reply?: R }).reply as R;\n",
    what: 'a write re-sent under the same operation id runs twice',
    tests: WRITE_TESTS,
  },
  {
    id: 'operation-record',
    file: 'packages/engine/src/writes/write-path.ts',
    find: '      if (operation !== undefined) this.#record(operation, reply);\n',
    what: "a write's reply is not recorded under its operation id",
    tests: WRITE_TESTS,
  },
  {
    id: 'operation-ttl',
    file: 'packages/engine/src/writes/write-path.ts',
    find: "    this.#db.exec({ sql: 'DELETE FROM operations WHERE at < ?', bind: [now - OPERATION_TTL_MS] });\n",
    what: 'operation records are kept forever',
    tests: WRITE_TESTS,
  },
  {
    id: 'apply-after-commit',
    file: 'packages/engine/src/writes/write-path.ts',
    find: '    plan.apply?.(result);\n',
    what: 'in-memory state (vectors, Bloom filter) does not catch up with a commit',
    tests: WRITE_TESTS,
  },
  {
    id: 'write-bump',
    file: 'packages/engine/src/writes/write-path.ts',
    find: '      if (operation !== undefined || (plan.changed?.(result) ?? true))\n        this.#hooks.bump({ kind: plan.kind, ids: plan.ids?.(result) ?? [] });\n',
    what: 'a committed write does not bump the generation',
    tests: [...CACHE_TESTS, T('concurrency'), CLIENT_RECALL],
  },
  {
    id: 'batch-duplicate-id',
    file: 'packages/engine/src/writes/remember.ts',
    find: '    if (callerIds.has(id))\n',
    replace: '    if (false)\n',
    what: 'an id given twice in one batch is accepted',
    tests: WRITE_TESTS,
  },
  {
    id: 'taken-id',
    file: 'packages/engine/src/writes/remember.ts',
    find: '  if (taken.length > 0) throw',
    replace: '  if (false) throw',
    what: 'an id already stored is accepted again',
    tests: WRITE_TESTS,
  },
  {
    id: 'update-not-found',
    file: 'packages/engine/src/writes/edits.ts',
    find: "      if (!row) throw new AnamnesisError('NOT_FOUND', key, { details: { id: key } });\n      if (fields.text",
    replace: '      if (fields.text',
    what: 'an update of a memory deleted while its text was embedded writes nothing and answers',
    tests: WRITE_TESTS,
  },
  {
    id: 'forget-empty-filter',
    file: 'packages/engine/src/writes/edits.ts',
    find: '  if (!all && where === EVERY_MEMORY) {\n',
    replace: '  if (false) {\n',
    what: 'forget with a filter that sets no condition deletes every memory',
    tests: WRITE_TESTS,
  },
  // store.ts: rows JSON cannot carry go one by one.
  {
    id: 'insert-json-safe',
    file: 'packages/engine/src/store/store.ts',
    find: '    !rows.every(jsonSafe)\n',
    replace: '    false\n',
    what: 'rows with values JSON cannot carry go through the JSON insert',
    tests: [T('store-insert'), T('hardening'), T('injection')],
  },
  {
    id: 'insert-rid-limit',
    file: 'packages/engine/src/store/store.ts',
    find: '    last > Number.MAX_SAFE_INTEGER - rows.length ||\n',
    what: 'rids near 2^53 go through the JSON insert',
    tests: [T('store-insert'), T('hardening')],
  },
  {
    id: 'vectors-same-length',
    file: 'packages/engine/src/store/store.ts',
    find: '    vectors.some((v) => v.byteLength !== size) ||\n',
    what: 'vectors of different lengths are cut as if of one length',
    tests: [T('store-insert'), T('engine'), T('embedder')],
  },
  // validate.ts: every guard of what a write accepts.
  ...[
    [
      'label',
      "  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_LABEL) {\n",
      '  if (false) {\n',
    ],
    ['label-column-text', '  return assertColumnText(value, what);\n', '  return value;\n'],
    [
      'text-string',
      "  if (typeof value !== 'string') throw new AnamnesisError('INVALID_INPUT', 'text must be a string');\n",
      '',
    ],
    ['text-blank', '  if (text.trim().length === 0)\n', '  if (false)\n'],
    ['text-length', '  if (text.length > maxLength) {\n', '  if (false) {\n'],
    ['text-well-formed', "  return assertWellFormed(text, 'text');\n", '  return text;\n'],
    ['tags-array', '  if (!Array.isArray(tags) || tags.length > MAX_TAGS) {\n', '  if (false) {\n'],
    [
      'meta-object',
      "  if (meta === null || typeof meta !== 'object' || Array.isArray(meta)) {\n",
      '  if (false) {\n',
    ],
    ['meta-keys', '  if (entries.length > MAX_META_KEYS) {\n', '  if (false) {\n'],
    ['meta-key', '    assertMetaKey(key);\n', ''],
    ['meta-value', '    assertMetaValue(value, key);\n', ''],
    ['meta-chars', '    if (chars > MAX_META_CHARS) {\n', '    if (false) {\n'],
    [
      'links-array',
      "  if (!Array.isArray(links)) throw new AnamnesisError('INVALID_INPUT', 'links must be an array');\n",
      '',
    ],
    ['links-count', '  if (links.length > MAX_LINKS) {\n', '  if (false) {\n'],
    ['link-object', "    if (!l || typeof l !== 'object')\n", '    if (false)\n'],
    [
      'link-weight',
      "    assertInRange(weight, Number.MIN_VALUE, Number.MAX_SAFE_INTEGER, 'link weight');\n",
      '',
    ],
    ['time-range', '  assertInRange(ms, -MAX_TIME, MAX_TIME, what);\n', ''],
    [
      'remember-object',
      "  if (!input || typeof input !== 'object')\n    throw new AnamnesisError('INVALID_INPUT', 'a memory must be an object');\n",
      '',
    ],
    ['remember-importance', "  assertInRange(importance, 0, 1, 'importance');\n", ''],
    ['remember-memory-score', "  assertInRange(memoryScore, 0, 1, 'memoryScore');\n", ''],
    ['update-object', "  if (!patch || typeof patch !== 'object')\n", '  if (false)\n'],
    ['update-known-keys', '    if (!known.has(key))\n', '    if (false)\n'],
    ['update-importance', "    assertInRange(patch.importance, 0, 1, 'importance');\n", ''],
    ['update-memory-score', "    assertInRange(patch.memoryScore, 0, 1, 'memoryScore');\n", ''],
  ].map(([id, find, replace]) => ({
    id: `validate-${id}`,
    file: 'packages/engine/src/input/validate.ts',
    find,
    replace,
    what: 'a write accepts what this guard refuses',
    tests: VALIDATE_TESTS,
  })),
];

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    tests: { type: 'string' },
    write: { type: 'string' },
    list: { type: 'boolean' },
  },
});
const only = values.only ? new Set(values.only.split(',')) : undefined;
const tests = values.tests?.split(',');
const chosen = MUTANTS.filter((m) => !only || only.has(m.id)).map((m) =>
  tests ? { ...m, tests } : m,
);
if (only && chosen.length !== only.size) throw new Error(`unknown mutant in --only ${values.only}`);

/**
 * The line (1-based) of the first line the mutant changes; throws unless `find` occurs exactly
 * once in `text`.
 */
function locate(text, m) {
  const at = text.indexOf(m.find);
  if (at < 0 || text.indexOf(m.find, at + 1) >= 0)
    throw new Error(
      `${m.id} (${m.file}): the text must occur exactly once (found ${at < 0 ? 0 : 'twice'})`,
    );
  const replace = m.replace ?? '';
  let same = 0;
  while (same < m.find.length && m.find[same] === replace[same]) same++;
  const changed = at + m.find.slice(0, same).lastIndexOf('\n') + 1;
  return text.slice(0, changed).split('\n').length;
}

const report = join(tmpdir(), `mutation-pass-${process.pid}.json`);
/** The Vitest run in progress (killed, with the files restored, on SIGINT or SIGTERM). */
let running;
/** Runs test files; resolves with the failed tests' full names (empty: all passed). */
async function runTests(files) {
  rmSync(report, { force: true });
  const r = await new Promise((resolve) => {
    running = spawn(
      'npx',
      [
        'vitest',
        'run',
        '--bail',
        '1',
        '--reporter',
        'json',
        '--outputFile',
        report,
        ...new Set(files),
      ],
      {
        env: { ...process.env, FORCE_COLOR: '0' },
        stdio: ['ignore', 'ignore', 'pipe'],
        detached: true,
      },
    );
    let stderr = '';
    running.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)));
    running.on('close', (status) => resolve({ status, stderr }));
  });
  running = undefined;
  let failed = [];
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    for (const file of json.testResults ?? []) {
      const rel = file.name.replace(`${process.cwd()}/`, '');
      for (const t of file.assertionResults ?? [])
        if (t.status === 'failed') failed.push(`${rel} › ${t.fullName}`);
      if ((file.assertionResults ?? []).length === 0 && file.status === 'failed')
        failed.push(`${rel} (failed to load: ${(file.message ?? '').split('\n')[0]})`);
    }
  } catch {
    if (r.status !== 0) failed.push(`(vitest exited ${r.status}: ${(r.stderr ?? '').slice(-300)})`);
  }
  if (r.status !== 0 && failed.length === 0) failed.push(`(vitest exited ${r.status})`);
  return failed;
}

const originals = new Map();
const restore = () => {
  for (const [file, text] of originals) writeFileSync(file, text);
};
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    if (running?.pid) process.kill(-running.pid, 'SIGKILL'); // the Vitest run and its workers
    restore();
    process.exit(130);
  });

const dirty = execFileSync(
  'git',
  ['status', '--porcelain', ...new Set(chosen.map((m) => m.file))],
  {
    encoding: 'utf8',
  },
).trim();
if (dirty) console.error(`note: uncommitted changes in the mutated files:\n${dirty}`);

// Every mutant is checked to apply before anything runs.
const lines = new Map(chosen.map((m) => [m.id, locate(readFileSync(m.file, 'utf8'), m)]));
if (values.list) {
  for (const m of chosen) console.log(`${m.id} ${m.file}:${lines.get(m.id)}`);
  process.exit(0);
}
const allTests = [...new Set(chosen.flatMap((m) => m.tests))];
console.error(`baseline: ${allTests.length} test files, unmutated…`);
const baseline = await runTests(allTests);
if (baseline.length > 0) {
  console.error(`the tests fail without any mutant:\n${baseline.join('\n')}`);
  process.exit(1);
}

const results = [];
try {
  for (const m of chosen) {
    const text = readFileSync(m.file, 'utf8');
    originals.set(m.file, text);
    writeFileSync(m.file, text.replace(m.find, m.replace ?? ''));
    const start = Date.now();
    const failed = await runTests(m.tests);
    writeFileSync(m.file, text);
    const result = {
      ...m,
      line: lines.get(m.id),
      killedBy: failed[0],
      s: (Date.now() - start) / 1000,
    };
    results.push(result);
    console.error(
      `${m.id} (${m.file}:${result.line}): ${failed.length ? `killed by ${failed[0]}` : 'SURVIVED'} [${result.s.toFixed(0)} s]`,
    );
  }
} finally {
  restore();
}

const cell = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');
const table = [
  '| mutant | file:line | what it breaks | killed by |',
  '| --- | --- | --- | --- |',
  ...results.map(
    (r) =>
      `| \`${r.id}\` | ${r.file.replace('packages/engine/src/', '')}:${r.line} | ${cell(r.what)} | ${r.killedBy ? cell(r.killedBy.replace('packages/engine/test/', '')) : '**SURVIVED**'} |`,
  ),
].join('\n');
console.log(table);
const survived = results.filter((r) => !r.killedBy);
console.log(`\n${results.length - survived.length} of ${results.length} mutants killed`);
if (values.write) {
  const doc = readFileSync(values.write, 'utf8');
  const begin = '<!-- mutation-pass:begin -->';
  const end = '<!-- mutation-pass:end -->';
  const a = doc.indexOf(begin);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${values.write} has no ${begin} … ${end}`);
  writeFileSync(values.write, `${doc.slice(0, a + begin.length)}\n${table}\n${doc.slice(b)}`);
  console.error(`wrote the table into ${values.write}`);
}
process.exitCode = survived.length > 0 ? 1 : 0;
