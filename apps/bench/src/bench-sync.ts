/**
 * `pnpm bench:sync -- [--n 10000] [--repeats 3] [--changes 30]`: what sync between devices costs,
 * in Node on file stores, with `@y/websocket-server`'s connection handler on loopback in this
 * process (its bytes counted both ways on the socket).
 *
 * - **First sync of a new device**: device A holds `n` memories (the bench corpus, the default
 *   model) and syncs; a new, empty device B starts syncing: the time until B holds all `n`
 *   (received, decrypted, imported and embedded on B; of it, the time until B's sync started: the
 *   scrypt of its keys, about a second whatever the store holds), and the bytes the server sent and received
 *   for B's connection. The peer is what people do without sync: A exports JSON Lines (with its
 *   vectors, so B need not embed) and B imports them: its time and the file's size.
 * - **One change's delay**: A remembers one new memory; the time until B's store has it (polled
 *   every 2 ms), `--changes` times, median and p95.
 *
 * Each first sync is a fresh pair of devices and a fresh room, A at rest (its lexical merge done)
 * before B starts; the figure is the median over `--repeats`. `uptime`'s load is printed before and after.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '@anamnesis/engine';
import { startNodeSync } from '@anamnesis/sync/node';

import { startSyncServer } from '../../../packages/sync/test/server.ts';
import { makeCorpus } from './corpus.ts';
import { nodeWords } from './node-corpus.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    n: { type: 'string', default: '10000' },
    repeats: { type: 'string', default: '3' },
    changes: { type: 'string', default: '30' },
  },
});
const N = Number(values.n);
const REPEATS = Number(values.repeats);
const CHANGES = Number(values.changes);
const load = () =>
  execFileSync('uptime', { encoding: 'utf8' })
    .trim()
    .replace(/.*load/, 'load');

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};
const median = (xs: number[]) => quantile(xs, 0.5);
const mb = (bytes: number) => (bytes / 1e6).toFixed(2);

/** Bytes on the wire, all connections: what the server sent and received. */
const count = { sent: 0, received: 0 };
const server = await startSyncServer((ws) => {
  ws.on('message', (data: Buffer | ArrayBuffer) => (count.received += data.byteLength));
  const send = ws.send.bind(ws);
  ws.send = ((data: Uint8Array, ...rest: unknown[]) => {
    count.sent += data.length;
    (send as (...a: unknown[]) => void)(data, ...rest);
  }) as typeof ws.send;
});
const base = server.url;

const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'));
const texts = makeCorpus(N, await nodeWords());
console.log(`bench:sync n=${N} repeats=${REPEATS}; ${load()}`);

async function until(cond: () => Promise<boolean>, pollMs: number): Promise<void> {
  while (!(await cond())) await new Promise((r) => setTimeout(r, pollMs));
}

interface Run {
  sync_s: number;
  /** Of `sync_s`: until the sync started (the key derivation, scrypt, and the state loaded). */
  keys_s: number;
  sync_down_mb: number;
  sync_up_kb: number;
  jsonl_s: number;
  jsonl_mb: number;
  delays: number[];
}

async function run(r: number): Promise<Run> {
  const room = `bench-${r}`;
  const open = (name: string) =>
    createEngine({ storage: 'file', path: join(dir, `${room}-${name}.db`) });
  const a = await open('a');
  for (let i = 0; i < N; i += 5000)
    await a.rememberMany(texts.slice(i, i + 5000).map((text) => ({ text })));
  const options = { url: base, room, passphrase: 'bench passphrase' };
  const syncA = await startNodeSync(a, join(dir, `${room}-a.db`), options);
  await until(async () => {
    await syncA.settled();
    return syncA.status().synced && syncA.status().pending === 0;
  }, 20);

  // A is another device: its work behind its writes (the lexical merge of 10,000 new memories,
  // due once no call has come for 2 s) is done before B starts, not in B's time (it runs in this
  // thread: a merge during B's first sync took it from 1.85 to 2.58 s)
  while ((await a.stats()).lexicalMerge.due) await new Promise((r) => setTimeout(r, 3000));
  const b = await open('b');
  const before = { ...count };
  const t0 = performance.now();
  const syncB = await startNodeSync(b, join(dir, `${room}-b.db`), options);
  const keys_s = (performance.now() - t0) / 1000;
  await until(async () => (await b.stats()).memories >= N, 20);
  const sync_s = (performance.now() - t0) / 1000;
  // both connections (A's is synced already: it only receives B's key check and status)
  const sync_down_mb = Number(mb(count.sent - before.sent));
  const sync_up_kb = Math.round((count.received - before.received) / 1000);

  const t1 = performance.now();
  const jsonl = await a.export({ vectors: true });
  const c = await open('c');
  await c.import(jsonl);
  const jsonl_s = (performance.now() - t1) / 1000;
  await c.close();

  const delays: number[] = [];
  for (let i = 0; i < CHANGES; i++) {
    const start = performance.now();
    const id = await a.remember({ text: `a change made on device A, number ${r}-${i}` });
    await until(async () => (await b.get(id)) !== null, 2);
    delays.push(performance.now() - start);
  }
  await syncA.close();
  await syncB.close();
  await a.close();
  await b.close();
  return {
    sync_s,
    keys_s,
    sync_down_mb,
    sync_up_kb,
    jsonl_s,
    jsonl_mb: Number(mb(Buffer.byteLength(jsonl))),
    delays,
  };
}

const runs: Run[] = [];
for (let r = 0; r < REPEATS; r++) {
  runs.push(await run(r));
  const x = runs.at(-1)!;
  console.log(
    `run ${r + 1}: first sync ${x.sync_s.toFixed(2)} s (the keys ${x.keys_s.toFixed(2)} s; ${x.sync_down_mb} MB down, ${x.sync_up_kb} kB up); ` +
      `export+import ${x.jsonl_s.toFixed(2)} s (${x.jsonl_mb} MB); one change p50 ${median(x.delays).toFixed(1)} ms`,
  );
}
const delays = runs.flatMap((x) => x.delays);
const m = (k: 'sync_s' | 'keys_s' | 'sync_down_mb' | 'sync_up_kb' | 'jsonl_s' | 'jsonl_mb') =>
  median(runs.map((x) => x[k]));
const spread = (k: 'sync_s' | 'jsonl_s') =>
  `${Math.min(...runs.map((x) => x[k])).toFixed(2)}–${Math.max(...runs.map((x) => x[k])).toFixed(2)}`;
console.log(
  `\n| ${N.toLocaleString('en')} memories, medians of ${REPEATS} | sync | export + import (peer) | ratio |`,
);
console.log('|--|--|--|--|');
console.log(
  `| to a new device, s (min–max) | ${m('sync_s').toFixed(2)} (${spread('sync_s')}) | ${m('jsonl_s').toFixed(2)} (${spread('jsonl_s')}) | ${(m('sync_s') / m('jsonl_s')).toFixed(2)}× |`,
);
console.log(`| of which the keys (scrypt, once a start), s | ${m('keys_s').toFixed(2)} | — | |`);
console.log(
  `| bytes | ${m('sync_down_mb')} MB down, ${m('sync_up_kb')} kB up | ${m('jsonl_mb')} (with vectors) | ${(m('sync_down_mb') / m('jsonl_mb')).toFixed(2)}× |`,
);
console.log(
  `| one change A → B, ms (${delays.length} changes) | p50 ${median(delays).toFixed(1)}, p95 ${quantile(delays, 0.95).toFixed(1)} | — | |`,
);
console.log(`\nafter: ${load()}`);
server.close();
rmSync(dir, { recursive: true, force: true });
// the server's per-document timers outlive the connections
process.exit(0);
