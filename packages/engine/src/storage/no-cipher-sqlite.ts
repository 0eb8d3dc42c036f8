/**
 * What the engine's `#cipher-sqlite` import (SQLite3 Multiple Ciphers' build of SQLite WASM, the
 * one an encrypted OPFS store opens on) is unless the app chose that build: `package.json`
 * `imports` points here by default, and `anamnesis({ encryption: true })` in a Vite config (or an
 * alias in another bundler) points it at `@evolu/sqlite-wasm`. So an app that never encrypts never
 * bundles a second SQLite, and one that asks for encryption without it gets a typed error that
 * says what to install.
 */
import { AnamnesisError } from '@anamnesis/errors';

import type { Sqlite3 } from '../store/sqlite.ts';

/** Stands for `@evolu/sqlite-wasm`'s module initialiser: always `UNSUPPORTED`, naming the fix. */
export default function sqlite3InitModule(): Promise<Sqlite3> {
  return Promise.reject(
    new AnamnesisError(
      'UNSUPPORTED',
      'an encrypted OPFS store needs SQLite3 Multiple Ciphers: `npm install @evolu/sqlite-wasm@2.2.4` ' +
        'and `anamnesis({ encryption: true })` in the Vite config (another bundler: alias ' +
        '#cipher-sqlite to @evolu/sqlite-wasm)',
    ),
  );
}
