/**
 * Checks SQLite3 Multiple Ciphers' build of SQLite WASM (`@evolu/sqlite-wasm`) in headless
 * Chromium, in a dedicated worker over the opfs-sahpool VFS (what `docs/encryption.md` reports):
 * versions, FTS5 and fts5vocab, createFunction, serialize, keying through a cipher VFS made over
 * the pool (`sqlite3mc_vfs_create`), reopening after a reload, a wrong key and no key, and whether
 * the OPFS file holds any plaintext. Serves the files itself on 127.0.0.1 and fails on a request
 * to any other origin. `pnpm --filter @anamnesis/e2e exec tsx bench/cipher-probe.ts`; prints one
 * JSON object.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { launchProfile } from '../chromium.ts';

const here = dirname(fileURLToPath(import.meta.url));
const engine = createRequire(join(here, '../../packages/engine/package.json'));
const jswasm = join(
  dirname(engine.resolve('@evolu/sqlite-wasm/package.json')),
  'sqlite-wasm/jswasm',
);
const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
};

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const name = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
  const file = name.startsWith('jswasm/')
    ? join(jswasm, name.slice(7))
    : join(here, 'cipher-probe', name);
  try {
    const body = readFileSync(file);
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const address = server.address();
const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
const profile = await launchProfile('anamnesis-cipher-probe-');
const foreign: string[] = [];
try {
  const page = await profile.context.newPage();
  page.on('request', (r) => {
    if (!r.url().startsWith(origin)) foreign.push(r.url());
  });
  await page.goto(`${origin}/`);
  const write = await page.evaluate(() =>
    (window as unknown as { probe(s: string): unknown }).probe('write'),
  );
  await page.reload();
  const reopen = await page.evaluate(() =>
    (window as unknown as { probe(s: string): unknown }).probe('reopen'),
  );
  console.log(JSON.stringify({ write, reopen, foreignRequests: foreign }, null, 1));
} finally {
  await profile.close();
  server.close();
}
