import { transaction } from '../store/sqlite.ts';
import type { EngineContext } from './context.ts';

/**
 * Inside a write transaction that adds, changes or deletes texts: drops the snapshots it makes
 * stale (the Bloom filter's, the similarity backend's), so a snapshot on disk always matches the rows.
 */
export function dropSnapshots(ctx: EngineContext): void {
  ctx.dedup.dropSnapshot();
  const key = ctx.similarity().snapshotKey;
  if (key !== undefined) ctx.db.exec({ sql: 'DELETE FROM meta WHERE key = ?', bind: [key] });
}

/** Saves the Bloom filter and the similarity backend's snapshot so the next open need not rebuild them. */
export function saveSnapshots(ctx: EngineContext): void {
  const similarity = ctx.similarity();
  const backend = similarity.snapshot?.();
  const key = similarity.snapshotKey;
  const parts = similarity.saveVectorPart?.bind(similarity);
  if (
    ctx.dedup.snapshotCurrent &&
    (backend === undefined || key === undefined) &&
    parts === undefined
  )
    return;
  transaction(ctx.db, 'saving snapshots', () => {
    ctx.dedup.saveSnapshot();
    while (parts?.(ctx.db, ctx.read, true));
    if (backend !== undefined && key !== undefined) {
      ctx.db.exec({
        sql: 'INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)',
        bind: [key, backend],
      });
    }
  });
}
