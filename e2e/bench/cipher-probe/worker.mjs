// The probe's dedicated worker: SQLite3 Multiple Ciphers' build of SQLite WASM
// (@evolu/sqlite-wasm) over the opfs-sahpool VFS. Served as a plain module (no bundler).
import init from './jswasm/sqlite3.mjs';

const SECRET = 'the vault combination is 31-17-42 behind the Vermeer';
const KEY = 'raw:' + '11'.repeat(32) + '22'.repeat(16);
const WRONG = 'raw:' + '33'.repeat(32) + '22'.repeat(16);

async function run(step) {
  const out = { step };
  const s = await init();
  const pool = await s.installOpfsSAHPoolVfs({ name: 'probe-pool', directory: '.probe' });
  out.poolVfs = pool.vfsName;
  out.mcVfsRc = s.capi.sqlite3mc_vfs_create(pool.vfsName, 0);
  const vfs = 'multipleciphers-' + pool.vfsName;
  out.vfsList = s.capi.sqlite3_js_vfs_list();
  const open = (key) => {
    const db = new s.oo1.DB({ filename: '/probe.db', vfs, flags: 'c' });
    if (key) db.exec(`PRAGMA key = '${key}'`);
    return db;
  };
  if (step === 'write') {
    const db = open(KEY);
    out.sqliteVersion = db.selectValue('select sqlite_version()');
    out.mcVersion = db.selectValue('select sqlite3mc_version()');
    out.cipher = db.selectValue('pragma cipher');
    out.fts5 = db.selectValues(
      "select * from pragma_compile_options where compile_options like '%FTS%'",
    );
    db.exec(
      "create virtual table notes using fts5(text, tokenize='porter unicode61', prefix='2 3')",
    );
    db.exec({ sql: 'insert into notes(text) values (?)', bind: [SECRET] });
    for (let i = 0; i < 200; i++)
      db.exec({ sql: 'insert into notes(text) values (?)', bind: [`filler ${i} gardening`] });
    db.exec("create virtual table vocab using fts5vocab(notes, 'row')");
    out.vocab = db.selectValue("select doc from vocab where term = 'vermeer'");
    db.createFunction('plus1', (_c, x) => x + 1, { deterministic: true });
    out.createFunction = db.selectValue('select plus1(41)');
    out.bm25 = db.selectValue("select bm25(notes) from notes where notes match 'vault'");
    out.exportBytes = s.capi.sqlite3_js_db_export(db).length;
    db.close();
  } else {
    const db = open(KEY);
    out.reopened = db.selectValue("select text from notes where notes match 'vermeer'");
    db.close();
    try {
      const w = open(WRONG);
      w.selectValue('select count(*) from sqlite_master');
      out.wrongKey = 'opened (!)';
      w.close();
    } catch (e) {
      out.wrongKey = { message: e.message, resultCode: e.resultCode };
    }
    try {
      const n = open(undefined);
      n.selectValue('select count(*) from sqlite_master');
      out.noKey = 'opened (!)';
      n.close();
    } catch (e) {
      out.noKey = { message: e.message, resultCode: e.resultCode };
    }
    // the file's bytes as OPFS holds them (the pool's copy of the database file)
    const bytes = pool.exportFile('/probe.db');
    out.fileBytes = bytes.length;
    const text = new TextDecoder('latin1').decode(bytes);
    out.plaintextFound = ['Vermeer', 'vault', 'gardening', 'SQLite format 3'].filter((m) =>
      text.includes(m),
    );
  }
  return out;
}

onmessage = async (e) => {
  try {
    postMessage(await run(e.data));
  } catch (err) {
    postMessage({ error: String(err && err.stack ? err.stack : err) });
  }
};
