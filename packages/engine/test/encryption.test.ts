/**
 * Encryption at rest of a file store (real files in a temp folder, real SQLite3 Multiple Ciphers
 * through better-sqlite3-multiple-ciphers): what is written is ciphertext, the right passphrase
 * reopens it, a wrong one is a typed error that leaves the store intact, a re-key moves it to a
 * new passphrase only.
 */
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { fileHeader } from '../src/io/page-scan.ts';
import { docBlock } from '../../../scripts/doc-blocks.ts';
import { defaultEmbedder, rejectsWith } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'anamnesis-crypt-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const SECRET = 'the vault combination is 31-17-42 behind the Vermeer';
const MARKERS = ['Vermeer', 'vault combination', '31-17-42', 'vermeer'];

async function open(path: string, passphrase?: string, create = true): Promise<Engine> {
  return createEngine({
    storage: 'file',
    path,
    create,
    embedder: await defaultEmbedder(),
    ...(passphrase === undefined ? {} : { encryption: { passphrase } }),
  });
}

/** Whether any of the markers' bytes (UTF-8) appear anywhere in the file. */
function leaks(file: string): string[] {
  const bytes = readFileSync(file);
  return MARKERS.filter((m) => bytes.includes(Buffer.from(m, 'utf8')));
}

describe('encrypted file store', () => {
  it('round trip: remembered, recalled, reopened with the passphrase; no plaintext in the file or its log', async () => {
    const path = join(dir, 'round.db');
    const a = await open(path, 'correct horse battery staple');
    const id = await a.remember({ text: SECRET, tags: ['Vermeer'] });
    for (let i = 0; i < 50; i++) await a.remember({ text: `filler note ${i} about gardening` });
    expect((await a.recall('Vermeer vault'))[0]?.id).toBe(id);
    // while open: the write-ahead log holds the recent pages
    expect(existsSync(`${path}-wal`)).toBe(true);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
    expect(leaks(`${path}-wal`)).toEqual([]);
    expect(leaks(path)).toEqual([]);
    await a.close();
    expect(leaks(path)).toEqual([]);
    expect(fileHeader(readFileSync(path).subarray(0, 24))).toBe('encrypted');

    const b = await open(path, 'correct horse battery staple');
    expect((await b.stats()).encrypted).toBe(true);
    expect((await b.get(id))?.text).toBe(SECRET);
    expect((await b.recall('vault combination'))[0]?.id).toBe(id);
    expect(await b.verify()).toEqual([]);
    await b.close();
  });

  it('a wrong passphrase is WRONG_PASSPHRASE, and the store is unchanged by the attempt', async () => {
    const path = join(dir, 'wrong.db');
    const a = await open(path, 'right one');
    const id = await a.remember({ text: SECRET });
    await a.close();
    const before = readFileSync(path);
    const e = await rejectsWith(open(path, 'wrong one'), 'WRONG_PASSPHRASE');
    expect(e.message).toMatch(/passphrase/);
    // nothing written: not one byte of the file, and no log left behind
    expect(readFileSync(path).equals(before)).toBe(true);
    expect(existsSync(`${path}-wal`)).toBe(false);
    const b = await open(path, 'right one');
    expect((await b.get(id))?.text).toBe(SECRET);
    expect(await b.verify()).toEqual([]);
    await b.close();
  });

  it('a wrong passphrase on a store left with its write-ahead log (a crash) loses none of the log', async () => {
    const path = join(dir, 'wal.db');
    const a = await open(path, 'right one');
    const ids = await a.rememberMany(
      Array.from({ length: 30 }, (_, i) => ({ text: `logged note ${i} about ${SECRET}` })),
    );
    // what a crash leaves: the store and its log as they are while open (copied now)
    const crashed = join(dir, 'wal-crashed.db');
    copyFileSync(path, crashed);
    copyFileSync(`${path}-wal`, `${crashed}-wal`);
    await a.close();
    expect(statSync(`${crashed}-wal`).size).toBeGreaterThan(0);
    await rejectsWith(open(crashed, 'wrong one'), 'WRONG_PASSPHRASE');
    const b = await open(crashed, 'right one');
    expect((await b.stats()).memories).toBe(30);
    for (const id of ids) expect(await b.get(id)).not.toBeNull();
    expect(await b.verify()).toEqual([]);
    await b.close();
  });

  it('an encrypted store opened without a passphrase, or a plain one with one: ENCRYPTION_MISMATCH, nothing changed', async () => {
    const enc = join(dir, 'mismatch-enc.db');
    const a = await open(enc, 'pass');
    await a.remember({ text: SECRET });
    await a.close();
    const encBefore = readFileSync(enc);
    const noKey = await rejectsWith(open(enc), 'ENCRYPTION_MISMATCH');
    expect(noKey.details).toMatchObject({ encrypted: true });
    expect(readFileSync(enc).equals(encBefore)).toBe(true);

    const plain = join(dir, 'mismatch-plain.db');
    const p = await open(plain);
    await p.remember({ text: SECRET });
    await p.close();
    // the control: a store that is not encrypted shows the text (so `leaks` can see it)
    expect(leaks(plain).length).toBeGreaterThan(0);
    const plainBefore = readFileSync(plain);
    const withKey = await rejectsWith(open(plain, 'pass'), 'ENCRYPTION_MISMATCH');
    expect(withKey.details).toMatchObject({ encrypted: false });
    expect(readFileSync(plain).equals(plainBefore)).toBe(true);
    // a plain store has no passphrase to change
    const q = await open(plain);
    expect((await q.stats()).encrypted).toBe(false);
    await rejectsWith(q.changePassphrase('new'), 'ENCRYPTION_MISMATCH');
    await q.close();
  });

  it('changePassphrase re-keys: the new passphrase opens it, the old one no longer does', async () => {
    const path = join(dir, 'rekey.db');
    const a = await open(path, 'old passphrase');
    const id = await a.remember({ text: SECRET });
    const saltBefore = readFileSync(path).subarray(0, 16);
    await a.changePassphrase('new passphrase');
    // still usable after the re-key, in WAL mode again
    const id2 = await a.remember({ text: 'written after the re-key' });
    expect((await a.recall('Vermeer'))[0]?.id).toBe(id);
    await a.close();
    // the salt is kept (a crash mid-re-key must leave a key the old passphrase derives)
    expect(readFileSync(path).subarray(0, 16).equals(saltBefore)).toBe(true);
    expect(leaks(path)).toEqual([]);
    await rejectsWith(open(path, 'old passphrase'), 'WRONG_PASSPHRASE');
    const b = await open(path, 'new passphrase');
    expect((await b.get(id))?.text).toBe(SECRET);
    expect((await b.get(id2))?.text).toBe('written after the re-key');
    expect(await b.verify()).toEqual([]);
    await rejectsWith(b.changePassphrase(''), 'INVALID_INPUT');
    await b.close();
  });

  it('checkEncryption answers as an open would, and follows a re-key', async () => {
    const path = join(dir, 'check.db');
    const a = await open(path, 'first passphrase');
    await a.checkEncryption({ passphrase: 'first passphrase' });
    // the NFC form is the same passphrase
    await a.checkEncryption({ passphrase: 'first passphrase'.normalize('NFD') });
    await rejectsWith(a.checkEncryption({ passphrase: 'first passphrasE' }), 'WRONG_PASSPHRASE');
    await rejectsWith(a.checkEncryption(), 'ENCRYPTION_MISMATCH');
    await rejectsWith(a.checkEncryption({ passphrase: '' }), 'INVALID_INPUT');
    await a.changePassphrase('second passphrase');
    await rejectsWith(a.checkEncryption({ passphrase: 'first passphrase' }), 'WRONG_PASSPHRASE');
    await a.checkEncryption({ passphrase: 'second passphrase' });
    await a.close();
    const plain = await open(join(dir, 'check-plain.db'));
    await plain.checkEncryption();
    await rejectsWith(
      plain.checkEncryption({ passphrase: 'any passphrase' }),
      'ENCRYPTION_MISMATCH',
    );
    await plain.close();
  });

  it('re-keying while another process (connection) has the store open is STORE_LOCKED and changes nothing', async () => {
    const path = join(dir, 'rekey-locked.db');
    const a = await open(path, 'first');
    const id = await a.remember({ text: SECRET });
    const b = await open(path, 'first');
    await rejectsWith(a.changePassphrase('second'), 'STORE_LOCKED');
    // both still work, under the first passphrase
    await a.remember({ text: 'after the refused re-key' });
    expect((await b.get(id))?.text).toBe(SECRET);
    await b.close();
    await a.close();
    const c = await open(path, 'first');
    expect((await c.stats()).memories).toBe(2);
    await c.close();
  });

  it('bad options are INVALID_INPUT; a damaged header is STORE_CORRUPT, not a wrong passphrase', async () => {
    const path = join(dir, 'bad.db');
    await rejectsWith(open(path, ''), 'INVALID_INPUT');
    await rejectsWith(
      createEngine({
        storage: 'file',
        path,
        embedder: await defaultEmbedder(),
        encryption: 'secret' as never,
      }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      createEngine({ storage: 'memory', encryption: { passphrase: 'x' } }),
      'UNSUPPORTED',
    );
    // An OPFS store (here: 'auto', never a store in memory instead) without SQLite3 Multiple
    // Ciphers' build in the app: what to install, before any OPFS access.
    for (const storage of ['auto', 'opfs'] as const) {
      const e = await createEngine({ storage, encryption: { passphrase: 'x' } }).catch(
        (error: unknown) => error,
      );
      expect(e).toMatchObject({
        code: 'UNSUPPORTED',
        message: expect.stringMatching(/@evolu\/sqlite-wasm.*encryption: true/),
      });
    }
    const src = join(dir, 'src.db');
    const a = await open(src, 'pass');
    await a.remember({ text: SECRET });
    await a.close();
    const damaged = join(dir, 'damaged.db');
    copyFileSync(src, damaged);
    const bytes = readFileSync(damaged);
    bytes.fill(0, 16, 24); // SQLite3MC's plain-text part of page 1
    const { writeFileSync } = await import('node:fs');
    writeFileSync(damaged, bytes);
    await rejectsWith(open(damaged, 'pass'), 'STORE_CORRUPT');
  });

  it('three connections creating one new encrypted store at once all open it, under one salt', async () => {
    const path = join(dir, 'race.db');
    const engines = await Promise.all([
      open(path, 'shared'),
      open(path, 'shared'),
      open(path, 'shared'),
    ]);
    const ids = await Promise.all(
      engines.map((e, i) => e.remember({ text: `from connection ${i}` })),
    );
    for (const e of engines) expect((await e.stats()).memories).toBe(3);
    for (const e of engines) await e.close();
    const b = await open(path, 'shared');
    for (const id of ids) expect(await b.get(id)).not.toBeNull();
    expect(await b.verify()).toEqual([]);
    await b.close();
  });

  it('a page altered on disk fails its authentication: STORE_CORRUPT with the right passphrase, never silently read', async () => {
    const src = join(dir, 'tamper-src.db');
    const a = await open(src, 'pass');
    await a.rememberMany(
      Array.from({ length: 400 }, (_, i) => ({ text: `note ${i}: ${SECRET} and more words ${i}` })),
    );
    await a.close();
    const bytes = readFileSync(src);
    expect(bytes.length).toBeGreaterThan(20 * 4096);
    const tampered = join(dir, 'tamper.db');
    // one byte in the middle of every page after the first
    for (let page = 1; page * 4096 < bytes.length; page++) bytes[page * 4096 + 2000]! ^= 0x55;
    const { writeFileSync } = await import('node:fs');
    writeFileSync(tampered, bytes);
    const e = await open(tampered, 'pass').then(
      async (b) => {
        // opened: the altered pages must fail when read
        const problems = await b.verify().catch((err: unknown) => err);
        await b.close();
        return problems;
      },
      (err: unknown) => err,
    );
    expect((e as { code?: string }).code).toBe('STORE_CORRUPT');
  });

  it('an empty passphrase-protected store is created encrypted at once, and the NFC form of a passphrase opens it', async () => {
    const path = join(dir, 'nfc.db');
    const a = await open(path, 'caf\u00e9'); // é as one code point
    await a.close();
    expect(fileHeader(readFileSync(path).subarray(0, 24))).toBe('encrypted');
    const b = await open(path, 'cafe\u0301'); // e + combining acute
    expect((await b.stats()).memories).toBe(0);
    await b.close();
  });
});

describe('changePassphrase and a crash', () => {
  /** The first page of the file at `path`: the salt, then page 1 under the key it has now. */
  function firstPage(path: string): string {
    const fd = openSync(path, 'r');
    try {
      const page = Buffer.alloc(4096);
      readSync(fd, page, 0, page.length, 0);
      return page.toString('hex');
    } finally {
      closeSync(fd);
    }
  }

  // Two moments of the re-key's one transaction: while it copies the old pages into its rollback
  // journal, and once it writes the new pages into the file (page 1 first: the file then starts
  // under the new key while the journal still holds the old pages, and the commit has not
  // happened). Either way the old passphrase must open the store as it was.
  it.each([
    ['while the journal fills', (journal: number) => journal > 256 * 1024],
    ['after the new page 1 reached the file, before the commit', undefined],
  ] as const)(
    'a process killed (SIGKILL) during the re-key, %s, leaves the store whole under the old passphrase',
    async (_when, journalFull) => {
      const { spawn } = await import('node:child_process');
      const path = join(dir, `crash-${journalFull ? 'journal' : 'write'}.db`);
      const a = await createEngine({
        storage: 'file',
        path,
        embedder: 'tfidf',
        encryption: { passphrase: 'old' },
      });
      // enough pages that the re-key (every page rewritten) takes a while
      await a.rememberMany(
        Array.from({ length: 6000 }, (_, i) => ({
          text: `note ${i}: ${SECRET} with some more words to fill the page ${i * 7919}`,
          allowDuplicate: true,
        })),
      );
      await a.close();
      const before = firstPage(path);
      const child = spawn(
        process.execPath,
        [
          '--conditions=@anamnesis/source',
          '--import',
          'tsx',
          join(import.meta.dirname, 'fixtures', 'rekeyer.ts'),
          path,
          'old',
          'new',
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      let killedDuring = false;
      const journalBytes = () => {
        try {
          return statSync(`${path}-journal`).size;
        } catch {
          return 0;
        }
      };
      for (;;) {
        const journal = journalBytes();
        // switching the journal mode writes a journal of a page or two before the re-key starts
        const now = journalFull
          ? journalFull(journal)
          : journal > 256 * 1024 && firstPage(path) !== before;
        if (now) {
          child.kill('SIGKILL');
          killedDuring = true;
          break;
        }
        if (out.includes('rekeyed') || child.exitCode !== null) break;
        await new Promise((r) => setImmediate(r));
      }
      await exited;
      expect(killedDuring, `that moment was never seen; child said: ${out}`).toBe(true);
      expect(journalBytes(), 'the kill left a hot journal').toBeGreaterThan(0);
      const old = await createEngine({
        storage: 'file',
        path,
        embedder: 'tfidf',
        encryption: { passphrase: 'old' },
      });
      expect((await old.stats()).memories).toBe(6000);
      expect(await old.verify()).toEqual([]);
      await old.close();
      await expect(
        createEngine({
          storage: 'file',
          path,
          embedder: 'tfidf',
          encryption: { passphrase: 'new' },
        }),
      ).rejects.toMatchObject({ code: 'WRONG_PASSPHRASE' });
    },
  );
});

describe('docs/encryption.md', () => {
  it("the guide's example runs as written: it creates, re-keys, and refuses a wrong passphrase", async () => {
    const code = docBlock(
      'docs/encryption.md',
      '',
      'ts',
      'packages/engine/test/encryption.test.ts',
    );
    // inside the engine package, so that '@anamnesis/engine' resolves to itself (its sources)
    const file = join(import.meta.dirname, 'fixtures', `.guide-${process.pid}.ts`);
    const cwd = mkdtempSync(join(tmpdir(), 'anamnesis-guide-'));
    writeFileSync(file, code);
    try {
      const { execFileSync } = await import('node:child_process');
      const { createRequire } = await import('node:module');
      const { pathToFileURL } = await import('node:url');
      // tsx by its path: `--import tsx` would be resolved from the temporary working directory
      const tsx = pathToFileURL(
        join(
          createRequire(import.meta.url).resolve('tsx/package.json'),
          '..',
          'dist',
          'loader.mjs',
        ),
      ).href;
      const out = execFileSync(
        process.execPath,
        ['--conditions=@anamnesis/source', '--import', tsx, file],
        { cwd, encoding: 'utf8', timeout: 120_000 },
      );
      expect(out).toContain('wrong passphrase; the store is intact');
      const notes = join(cwd, 'notes.db');
      expect(fileHeader(new Uint8Array(readFileSync(notes)).subarray(0, 24))).toBe('encrypted');
      const engine = await createEngine({
        storage: 'file',
        path: notes,
        embedder: await defaultEmbedder(),
        encryption: { passphrase: 'a longer and better passphrase' },
      });
      expect((await engine.recall('vault combination'))[0]?.text).toBe(
        'the vault combination is 31-17-42',
      );
      await engine.close();
    } finally {
      rmSync(file, { force: true });
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
