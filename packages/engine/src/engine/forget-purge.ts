import { QuietSteps } from '../store/quiet-steps.ts';
import type { Database } from '../store/database.ts';
import { purge } from '../store/secure-delete.ts';

/** Quiet time (ms) after the last call before the purge runs. */
const PURGE_IDLE_MS = 2000;

/**
 * Forgotten text purged from the store's file behind the engine's calls, once it is quiet after
 * text was removed (see `store/secure-delete.ts`, `purge`): the lexical indexes rewritten where
 * the SQLite build has no FTS5 secure-delete, the file store's WAL checkpointed and truncated.
 * The engine also runs it at close.
 */
export function forgetPurge(
  db: Database,
  lexicalSecureDelete: boolean,
  wal: boolean,
  busy: () => boolean,
): QuietSteps {
  return new QuietSteps(() => purge(db, lexicalSecureDelete, wal), PURGE_IDLE_MS, busy);
}
