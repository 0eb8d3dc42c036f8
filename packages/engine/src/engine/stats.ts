import type { ArcCache } from '@anamnesis/ranking';
import type { EngineStats, RecallResult, RecallStageTimes } from '../types.ts';
import type { EngineContext } from './context.ts';
import { forgetting } from '../store/secure-delete.ts';
import { lexicalMergeState } from './lexical-merge.ts';
import type { ModelState } from './model.ts';

/** What {@link engineStats} reads of the engine besides its context. */
export interface StatsInput {
  readonly cache: ArcCache<string, readonly RecallResult[]>;
  readonly generation: number;
  readonly schemaVersion: number;
  readonly modelState: ModelState;
  readonly recallStages: RecallStageTimes;
  readonly usageQueue: EngineStats['usageQueue'];
}

/** What the store and its model are (`Engine.about`): read from memory, not from the store. */
export type StoreAbout = Pick<EngineStats, 'backend' | 'backendReason' | 'encrypted' | 'model'>;

/** {@link StoreAbout} of the engine's context. */
export function storeAbout(ctx: EngineContext, modelState: ModelState): StoreAbout {
  const similarity = ctx.similarity();
  return {
    backend: ctx.io.kind,
    ...(ctx.io.reason ? { backendReason: ctx.io.reason } : {}),
    encrypted: ctx.io.encrypted ?? false,
    model: {
      id: similarity.id,
      dims: similarity.dims,
      device: similarity.device,
      state: modelState,
    },
  };
}

/** Counts, sizes, model, cache and generation (`Engine.stats`). */
export function engineStats(ctx: EngineContext, engine: StatsInput): EngineStats {
  const { db } = ctx.io;
  const similarity = ctx.similarity();
  const n = (sql: string) => Number(db.selectValue(sql));
  const cache = engine.cache.stats();
  const [parts, inParts] = db.selectArray(
    'SELECT count(*), coalesce(sum(n_rows), 0) FROM vector_snapshot',
  ) as [number, number];
  return {
    memories: n('SELECT count(*) FROM memories'),
    links: n('SELECT count(*) FROM links'),
    // the events of the last week, and the older ones folded
    usageEvents:
      n('SELECT count(*) FROM usage') + n('SELECT coalesce(sum(count), 0) FROM usage_folded'),
    usageQueue: { ...engine.usageQueue },
    ...(ctx.io.syncs ? { diskSyncs: ctx.io.syncs() } : {}),
    bytes: n('SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()'),
    ...storeAbout(ctx, engine.modelState),
    truncated: similarity.truncated,
    cache: { hits: cache.hits, misses: cache.misses, size: engine.cache.size },
    recallStages: { recalls: engine.recallStages.recalls, ms: { ...engine.recallStages.ms } },
    generation: engine.generation,
    schemaVersion: engine.schemaVersion,
    vectorParts: { parts, vectors: inParts },
    lexicalMerge: lexicalMergeState(db),
    forgetting: forgetting(db),
    memory: {
      sqliteWasm: ctx.io.sqliteWasmBytes(),
      ...(similarity.bytes !== undefined ? { vectors: similarity.bytes } : {}),
    },
  };
}

/**
 * Checks the store: SQLite's integrity check, FTS5's own check against the rows, and that every
 * memory has exactly one vector in the index and on disk. Returns the problems found (empty: ok).
 */
export function verifyStore(ctx: EngineContext): string[] {
  const { db } = ctx.io;
  const problems: string[] = [];
  const integrity = db.selectValues('PRAGMA integrity_check').map(String);
  if (integrity.join() !== 'ok') problems.push(`integrity_check: ${integrity.join('; ')}`);
  const checks = {
    memories_fts: "INSERT INTO memories_fts(memories_fts, rank) VALUES ('integrity-check', 1)",
    memories_words:
      "INSERT INTO memories_words(memories_words, rank) VALUES ('integrity-check', 1)",
  };
  for (const [table, check] of Object.entries(checks)) {
    try {
      db.exec(check);
    } catch (e) {
      problems.push(`${table}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  problems.push(...ctx.similarity().verify(db, ctx.read));
  return problems;
}
