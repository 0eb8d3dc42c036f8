/**
 * The engine on SQLite3 Multiple Ciphers' build of SQLite WASM (`@evolu/sqlite-wasm` 2.2.4,
 * SQLite 3.50.4), the build an encrypted browser store would load: every statement the engine
 * runs (schema, migrations, FTS5 with its prefix index, fts5vocab, user functions, the raw reader,
 * serialize for recovery) must work on it as on the SQLite we pin. In Node it runs in memory only
 * (its Node build has no file system), so this checks the SQL, not the encryption: the module is
 * swapped for the whole file (the real library, not a stand-in); `PINNED=1` runs the same tests
 * on the pinned SQLite, the control.
 */
import { describe, expect, it, vi } from 'vitest';

vi.mock('@sqlite.org/sqlite-wasm', async (original) =>
  process.env.PINNED ? original() : import('@evolu/sqlite-wasm'),
);

const { createEngine, loadSqlite } = await import('../src/index.ts');
const { exportDatabase, importDatabase } = await import('../src/store/sqlite.ts');
const { defaultEmbedder } = await import('./helpers.ts');

describe('the engine on @evolu/sqlite-wasm (SQLite 3.50.4 with SQLite3 Multiple Ciphers)', () => {
  // PINNED=1: the same tests on the SQLite we pin (the control), but for this one
  it.skipIf(process.env.PINNED)('is that build', async () => {
    const sqlite3 = await loadSqlite();
    const db = new sqlite3.oo1.DB(':memory:', 'c');
    expect(db.selectValue('select sqlite_version()')).toBe('3.50.4');
    expect(db.selectValue('select sqlite3mc_version()')).toMatch(/Multiple Ciphers 2\.2\.4/);
    db.close();
  });

  it('remembers, recalls (lexical, prefix, typo, vector), links, updates, forgets, verifies, exports and imports', async () => {
    const engine = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    const ids = await engine.rememberMany([
      { text: 'The vault combination is hidden behind the Vermeer painting', tags: ['art'] },
      { text: 'Bake the sourdough at 250 degrees for forty minutes', tags: ['food'] },
      { text: 'The train to Lisbon leaves at 7:40 from platform 3', tags: ['travel'] },
    ]);
    await engine.link(ids[0]!, ids[2]!);
    await engine.markUsed(ids[1]!, 'used');
    expect((await engine.recall('Vermeer vault'))[0]?.id).toBe(ids[0]);
    // search as you type: the prefix index
    expect((await engine.recall('sourd', { typing: true }))[0]?.id).toBe(ids[1]);
    // a misspelt word: corrected from the store's words (fts5vocab)
    expect((await engine.recall('Lisbn train'))[0]?.id).toBe(ids[2]);
    expect((await engine.recall('vermer'))[0]?.id).toBe(ids[0]);
    expect((await engine.recall('bread baking oven temperature'))[0]?.id).toBe(ids[1]);
    await engine.update(ids[2]!, { text: 'The train to Porto leaves at 8:10' });
    expect((await engine.recall('Porto'))[0]?.id).toBe(ids[2]);
    expect(await engine.forget({ tags: ['food'] })).toBe(1);
    expect(await engine.verify()).toEqual([]);
    const jsonl = await engine.export();
    await engine.close();
    const copy = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    expect(await copy.import(jsonl)).toBe(2);
    expect((await copy.recall('Vermeer'))[0]?.text).toMatch(/Vermeer/);
    await copy.close();
  });

  it('serializes and deserializes a database (what recovery and snapshots use)', async () => {
    const sqlite3 = await loadSqlite();
    const db = new sqlite3.oo1.DB(':memory:', 'c');
    db.exec("create table t(a); insert into t values ('kept across serialize')");
    const copy = importDatabase(sqlite3, exportDatabase(sqlite3, db));
    expect(copy.selectValue('select a from t')).toBe('kept across serialize');
    copy.close();
    db.close();
  });
});
