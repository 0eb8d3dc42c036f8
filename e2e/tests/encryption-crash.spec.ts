/**
 * An encrypted OPFS store whose change of passphrase is cut by a crash of the whole browser: the
 * Chromium process tree is killed with SIGKILL mid re-key on a persistent profile (OPFS on disk,
 * as a person's), then started again on the same profile. Whatever the moment, the store must open
 * whole under exactly one of the two passphrases: the old one until the re-key committed, the new
 * one after. Before the engine made a copy of the store ahead of the in-place re-key (see
 * `packages/engine/src/storage/opfs-encrypted.ts`), kills near the commit left a store that neither
 * passphrase opened (2 of the first 12 kills here).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from '@playwright/test';

import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { expect, test, watchForeignRequests } from '../fixtures.ts';
import { BASE_URL } from '../playwright.config.ts';
import { ok, openClientPage, type ClientDriver } from './client.ts';
import { PROBES } from './probes.ts';

const FIRST = 'correct horse battery staple';
const SECOND = 'a second and longer passphrase';
/** Enough pages (about 18 MB) that the re-key's commit is a window a kill can land in. */
const NOTES = 16_000;
/**
 * Kill moments, as fractions of a whole re-key's time measured first: around its commit, and two
 * well after it (a re-key under a loaded machine, as CI's two cores running other browsers, took
 * longer than 1.6× the one measured, and every kill landed before the commit).
 */
const ALL_KILLS = [0.55, 0.75, 0.9, 0.97, 1.03, 1.1, 1.2, 1.35, 1.6, 2.2, 3];
/**
 * The moments used: in the default (CI) run one before the commit, two around it and two after
 * (each kill costs a browser start and three key derivations); `ANAMNESIS_SOAK=1` (`pnpm
 * test:soak`) uses every one.
 */
const KILLS = process.env.ANAMNESIS_SOAK === '1' ? ALL_KILLS : [0.75, 0.97, 1.1, 1.6, 3];

const memories = (stats: unknown) => (stats as { memories: number }).memories;

test('the browser killed (SIGKILL) while changePassphrase re-keys: the store opens whole under exactly one of the two passphrases', async () => {
  test.setTimeout(600_000);
  const dir = mkdtempSync(join(tmpdir(), 'anamnesis-rekey-crash-'));
  const foreign: string[] = [];
  let context: BrowserContext | undefined;
  const start = async (): Promise<ClientDriver> => {
    context = await chromium.launchPersistentContext(dir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      baseURL: BASE_URL,
      args: CHROMIUM_ARGS,
    });
    const seen = await watchForeignRequests(context, new URL(BASE_URL).origin);
    context.on('close', () => foreign.push(...seen));
    return openClientPage(context.pages()[0] ?? (await context.newPage()), { clear: false });
  };
  const crash = async () => {
    execFileSync('pkill', ['-KILL', '-f', `user-data-dir=${dir}`]);
    await context!.close().catch(() => undefined);
  };
  try {
    let c = await start();
    await c.clearOpfs();
    ok(await c.open('a', { name: 'vault', encryption: { passphrase: FIRST } }));
    const notes = Array.from({ length: NOTES }, (_, i) => ({
      text: `re-key note ${i} ${PROBES[i % PROBES.length]}`,
    }));
    ok(await c.call('a', 'rememberMany', [notes]));
    // the re-key is timed on the store as the kills below meet it: closed once (its snapshots
    // written) and opened again
    ok(await c.close('a'));
    ok(await c.open('a', { name: 'vault', encryption: { passphrase: FIRST } }));
    const t0 = Date.now();
    ok(await c.call('a', 'changePassphrase', [SECOND]));
    const whole = Date.now() - t0;
    ok(await c.call('a', 'changePassphrase', [FIRST]));
    ok(await c.close('a'));
    let current = FIRST;
    const outcomes: string[] = [];
    for (const at of KILLS) {
      const next = current === FIRST ? SECOND : FIRST;
      ok(await c.open('a', { name: 'vault', encryption: { passphrase: current } }));
      await c.start('a', 'changePassphrase', [next]);
      await new Promise((r) => setTimeout(r, Math.round(at * whole)));
      await crash();
      c = await start();
      const old = await c.open('o', { name: 'vault', encryption: { passphrase: current } });
      if (old.ok) {
        ok(await c.close('o'));
        expect(
          await c.open('n', { name: 'vault', encryption: { passphrase: next } }),
        ).toMatchObject({ ok: false, error: { code: 'WRONG_PASSPHRASE' } });
      } else {
        expect(old).toMatchObject({ ok: false, error: { code: 'WRONG_PASSPHRASE' } });
        current = next;
      }
      ok(await c.open('v', { name: 'vault', encryption: { passphrase: current } }));
      expect(memories(ok(await c.call('v', 'stats', [])))).toBe(NOTES);
      expect(ok(await c.call('v', 'verify', []))).toEqual([]);
      ok(await c.close('v'));
      outcomes.push(`${at}×: ${old.ok ? 'old' : 'new'}`);
    }
    // the kills straddled the commit: some before it, some after
    expect(outcomes.some((o) => o.endsWith('old'))).toBe(true);
    expect(outcomes.some((o) => o.endsWith('new'))).toBe(true);
    test.info().annotations.push({
      type: 're-key crashes',
      description: `whole re-key ${whole} ms; ${outcomes.join(', ')}`,
    });
    console.log(`[encryption-crash] whole re-key ${whole} ms; ${outcomes.join(', ')}`);
  } finally {
    await context?.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
  expect(foreign).toEqual([]);
});
