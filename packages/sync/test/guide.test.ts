import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createEngine } from '@anamnesis/engine';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { docBlock } from '../../../scripts/doc-blocks.ts';
import { createSyncCode, parseSyncCode } from '../src/index.ts';
import { startNodeSync } from '../src/node.ts';
import { startSyncServer, type SyncServer } from './server.ts';

let server: SyncServer;
let url: string;
beforeAll(async () => {
  server = await startSyncServer();
  url = server.url;
});
afterAll(() => server.close());

it("docs/sync.md's example runs as written, and a second device with the same code receives its memory", async () => {
  const code = docBlock('docs/sync.md', '', 'ts', 'packages/sync/test/guide.test.ts');
  // inside this package, so that its imports resolve (to the sources)
  const file = join(import.meta.dirname, `.guide-${process.pid}.ts`);
  const cwd = mkdtempSync(join(tmpdir(), 'anamnesis-sync-guide-'));
  writeFileSync(file, code);
  const syncCode = createSyncCode();
  try {
    const tsx = pathToFileURL(
      join(createRequire(import.meta.url).resolve('tsx/package.json'), '..', 'dist', 'loader.mjs'),
    ).href;
    // not execFileSync: the server runs in this process, and must answer meanwhile
    const { stdout: out } = await promisify(execFile)(
      process.execPath,
      ['--conditions=@anamnesis/source', '--import', tsx, file],
      {
        cwd,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, ANAMNESIS_SYNC_URL: url, ANAMNESIS_SYNC_CODE: syncCode },
      },
    );
    expect(out).toContain('synced, 0 pending');
    const path = join(cwd, 'other.db');
    const other = await createEngine({ storage: 'file', path, embedder: 'tfidf' });
    const sync = await startNodeSync(other, path, { url, ...parseSyncCode(syncCode) });
    const end = Date.now() + 20_000;
    while ((await other.stats()).memories === 0 && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    expect((await other.list()).map((m) => m.text)).toEqual([
      'the spare key is under the blue flower pot',
    ]);
    await sync.close();
    await other.close();
  } finally {
    rmSync(file, { force: true });
    rmSync(cwd, { recursive: true, force: true });
  }
}, 120_000);
