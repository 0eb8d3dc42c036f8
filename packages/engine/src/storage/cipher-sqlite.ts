import { AnamnesisError } from '@anamnesis/errors';

import type { Sqlite3 } from '../store/sqlite.ts';

let cipherPromise: Promise<Sqlite3> | undefined;

/**
 * Loads SQLite3 Multiple Ciphers' build of SQLite WASM (`@evolu/sqlite-wasm`, SQLite 3.50.4), once
 * per worker, for encrypted OPFS stores only: the engine imports it as `#cipher-sqlite`, which is
 * a module that fails with `UNSUPPORTED` (naming the install) unless the app's bundler points it
 * at that package (`anamnesis({ encryption: true })`). Plain stores never load it.
 */
export function loadCipherSqlite(): Promise<Sqlite3> {
  cipherPromise ??= import('#cipher-sqlite')
    .then((module) => module.default())
    .catch((cause: unknown) => {
      cipherPromise = undefined;
      if (cause instanceof AnamnesisError) throw cause;
      throw new AnamnesisError('UNSUPPORTED', 'SQLite3 Multiple Ciphers failed to load', { cause });
    });
  return cipherPromise;
}
