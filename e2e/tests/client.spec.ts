/**
 * `@anamnesis/client` in Chromium: the engine in a dedicated worker behind Comlink, on OPFS, one
 * owner tab per store. Every test starts from an empty OPFS and fails on any request to another
 * origin (see `fixtures.ts`).
 */
import type { OpenMemoryOptions } from '@anamnesis/client';

import { expect, test } from '../fixtures.ts';
import { EXAMPLE_URL } from '../playwright.config.ts';
import { ok, openClientPage } from './client.ts';
import { damageStore, storePageSize } from './opfs.ts';
import { PROBES } from './probes.ts';

const NOTES = [
  { id: 'cat', text: 'I adopted a kitten named Luna and she sleeps on the sofa', tags: ['pets'] },
  { id: 'tax', text: 'the quarterly tax filing deadline is in april, send receipts' },
  { id: 'trip', text: 'we hiked along the mountain trail and camped by a lake' },
];

test('remember → recall in the worker on OPFS; stats say opfs, persisted, usage and quota; a new store has 16 KiB pages', async ({
  page,
}) => {
  const c = await openClientPage(page);
  const info = ok(await c.open('a', { name: 'basic', persist: true }));
  expect(info).toMatchObject({
    role: 'owner',
    backend: 'opfs',
    device: 'wasm',
    model: { id: 'anamnesis/static-multi-64d', dims: 64 },
  });
  expect(ok(await c.call('a', 'rememberMany', [NOTES]))).toEqual(['cat', 'tax', 'trip']);
  const hits = ok(await c.call('a', 'recall', ['my cat', { explain: true }])) as {
    id: string;
  }[];
  expect(hits[0]!.id).toBe('cat');
  const stats = ok(await c.call('a', 'stats', [])) as Record<string, unknown>;
  expect(stats).toMatchObject({ memories: 3, backend: 'opfs' });
  expect(typeof stats.persisted).toBe('boolean');
  expect(stats.usage).toBeGreaterThan(0);
  expect(stats.quota).toBeGreaterThan(0);
  ok(await c.close('a'));
  expect(await storePageSize(page, 'basic')).toBe(16_384);
  // reopened and written again: the same pages, the same memories
  ok(await c.open('a', { name: 'basic' }));
  ok(await c.call('a', 'remember', [{ text: 'the boiler service is booked for friday' }]));
  expect((ok(await c.call('a', 'recall', ['my cat'])) as { id: string }[])[0]!.id).toBe('cat');
  expect(ok(await c.call('a', 'stats', []))).toMatchObject({ memories: 4 });
  ok(await c.close('a'));
  expect(await storePageSize(page, 'basic')).toBe(16_384);
});

test('pageCacheMb caps what SQLite keeps of the store: 1 MB holds its memory down where 64 MB grows; an invalid size is INVALID_INPUT', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const c = await openClientPage(page);
  const invalid = await c.open('bad', { name: 'cache-bad', pageCacheMb: 0 });
  expect(invalid.ok ? 'opened' : invalid.error.code).toBe('INVALID_INPUT');
  // ~25 MB of pages (texts, their FTS index, vectors and the vectors' snapshot parts)
  const words = ['river', 'garden', 'ticket', 'violin', 'harbor', 'pepper', 'lantern', 'saddle'];
  const items = Array.from({ length: 20_000 }, (_, i) => ({
    text: `note ${i}: ${words[i % 8]} ${words[(i * 7) % 8]} ${words[(i * 3) % 8]} number ${i * 7919}`,
    allowDuplicate: true,
  }));
  const sqliteMb = async (key: string, pageCacheMb?: number) => {
    ok(await c.open(key, { name: `cache-${key}`, ...(pageCacheMb ? { pageCacheMb } : {}) }));
    for (let i = 0; i < items.length; i += 5000)
      ok(await c.call(key, 'rememberMany', [items.slice(i, i + 5000)]));
    for (const w of words) ok(await c.call(key, 'recall', [`${w} number`, { noCache: true }]));
    const stats = ok(await c.call(key, 'stats', [])) as { memory: { sqliteWasm: number } };
    return stats.memory.sqliteWasm / 1e6;
  };
  const small = await sqliteMb('small', 1);
  const large = await sqliteMb('large');
  expect(large - small).toBeGreaterThan(8);
});

test('after a bulk ingest and a killed worker, the next open reads the vectors and writes their snapshot parts behind it without filling the page cache', async ({
  page,
}) => {
  test.setTimeout(120_000);
  let c = await openClientPage(page);
  ok(await c.open('a', { name: 'parts' }));
  const items = Array.from({ length: 20_000 }, (_, i) => ({
    text: `entry ${i}: ${['river', 'garden', 'ticket', 'violin'][i % 4]} number ${i * 7919}`,
    allowDuplicate: true,
  }));
  for (let i = 0; i < items.length; i += 5000)
    ok(await c.call('a', 'rememberMany', [items.slice(i, i + 5000)]));
  await c.killWorkers(); // no quiet second, no close: no snapshot parts, no dedup snapshot
  await page.reload();
  c = await openClientPage(page, { clear: false });
  ok(await c.open('b', { name: 'parts' }));
  type Stats = {
    memories: number;
    vectorParts: { parts: number; vectors: number };
    memory: { sqliteWasm: number };
  };
  const stats = async () => ok(await c.call('b', 'stats', [])) as Stats;
  // The killed worker left the last batch's vectors outside the parts (no quiet second after it;
  // a slow machine may have written parts between the batches).
  const atOpen = (await stats()).vectorParts;
  expect(atOpen.vectors).toBeLessThan(20_000 - 5000);
  // The parts are written after a quiet second, one per task (the dedup filter is rebuilt
  // meanwhile), until less than a part's worth of vectors is left outside them. Any call postpones
  // the next part by a quiet second: asked every 1.5 s.
  await expect
    .poll(
      async () => {
        const { parts, vectors } = (await stats()).vectorParts;
        return parts > 0 && 20_000 - vectors < vectors / parts;
      },
      { intervals: [1500], timeout: 60_000 },
    )
    .toBe(true);
  const after = await stats();
  expect(after.vectorParts.parts).toBeGreaterThan(atOpen.parts); // written behind this open
  expect(after.memories).toBe(20_000);
  // ~8 MB of stored vectors and ~10 MB of parts went through a 2 MB cache, not the 64 MB one
  expect(after.memory.sqliteWasm / 1e6).toBeLessThan(12);
  // the store reopens whole, its vectors (parts and rows) all found
  ok(await c.close('b'));
  ok(await c.open('c', { name: 'parts' }));
  expect(ok(await c.call('c', 'stats', [])) as { memories: number }).toMatchObject({
    memories: 20_000,
  });
  expect(ok(await c.call('c', 'verify', []))).toEqual([]);
});

test('connectMemory: the store opens beside the model; recall before it is ready is lexical and partial, writes made then are embedded', async ({
  page,
}) => {
  const c = await openClientPage(page);
  const connectedAt = await c.connect('e', { name: 'early' });
  // at once, no waiting for anything
  const written = await c.start('e', 'rememberMany', [NOTES]);
  const first = await c.start('e', 'recall', ['kitten sofa', { explain: true }]);
  expect(ok(await c.settle(written))).toEqual(['cat', 'tax', 'trip']);
  const hits = ok(await c.settle(first)) as {
    id: string;
    partial?: true;
    similarity: number;
    explain: { partial?: string };
  }[];
  const answeredAt = await c.now();
  expect(hits[0]!.id).toBe('cat');
  const partial = hits[0]!.partial === true;
  for (const h of hits) {
    expect(h.partial === true).toBe(partial);
    if (partial) {
      expect(h.similarity).toBe(0);
      expect(h.explain.partial).toMatch(/still loading/);
    }
  }
  await expect
    .poll(async () => (await c.partsOf('e')).map((p) => p.part))
    .toEqual(['store', 'model']);
  // with the model: meaning, and every memory written before it has its vector
  const later = ok(await c.call('e', 'recall', ['my cat'])) as { id: string; partial?: true }[];
  expect(later[0]).toMatchObject({ id: 'cat' });
  expect(later[0]!.partial).toBeUndefined();
  expect(ok(await c.call('e', 'verify', []))).toEqual([]);
  const parts = await c.partsOf('e');
  const description =
    `first recall answered ${(answeredAt - connectedAt).toFixed(0)} ms after connectMemory ` +
    `(${partial ? 'partial: lexical' : 'with the model'}); store ready at ` +
    `${(parts[0]!.at - connectedAt).toFixed(0)} ms, model at ${(parts[1]!.at - connectedAt).toFixed(0)} ms`;
  test.info().annotations.push({ type: 'early recall', description });
  console.log(`[early recall] ${description}`);
});

test("model: 'tfidf' opens with no model and no ONNX Runtime: remembers, recalls, survives a reload", async ({
  page,
}) => {
  const assets: string[] = [];
  page.on('request', (r) => {
    if (/\/(models|ort)\//.test(new URL(r.url()).pathname)) assets.push(r.url());
  });
  let c = await openClientPage(page);
  const info = ok(await c.open('t', { name: 'tfidf', model: 'tfidf' })) as {
    device: string;
    model: { id: string; dims: number };
    openMs: number;
  };
  expect(info).toMatchObject({
    backend: 'opfs',
    device: 'none',
    model: { id: 'tfidf', dims: 0 },
    // a new store's pool: its database, its journal and one spare file
    timings: { storageSteps: { poolFiles: 3 } },
  });
  ok(await c.call('t', 'rememberMany', [NOTES]));
  const hits = ok(await c.call('t', 'recall', ['kitten sofa'])) as { id: string }[];
  expect(hits[0]!.id).toBe('cat');
  expect(ok(await c.call('t', 'verify', []))).toEqual([]);
  await page.reload();
  c = await openClientPage(page, { clear: false });
  ok(await c.open('t', { name: 'tfidf', model: 'tfidf' }));
  expect((ok(await c.call('t', 'recall', ['receipts deadline'])) as { id: string }[])[0]!.id).toBe(
    'tax',
  );
  // No model file and no ONNX Runtime file was requested for the TF-IDF opens.
  expect(assets).toEqual([]);
  // The store records its backend: the default model needs an explicit re-embed.
  ok(await c.close('t'));
  expect(await c.open('d', { name: 'tfidf' })).toMatchObject({
    ok: false,
    error: { code: 'MODEL_MISMATCH' },
  });
  test.info().annotations.push({
    type: 'tfidf',
    description: `opened in ${info.openMs.toFixed(0)} ms (worker start to store ready, no model)`,
  });
});

test('error codes and details cross the boundary; CLOSED after close and after `await using`', async ({
  page,
}) => {
  const c = await openClientPage(page);
  const bad = await c.open('bad', { name: 'no spaces allowed' });
  expect(bad).toMatchObject({
    ok: false,
    error: { code: 'INVALID_INPUT', isAnamnesisError: true },
  });

  ok(await c.open('a', { name: 'errors' }));
  const empty = await c.call('a', 'remember', [{ text: '' }]);
  expect(empty).toMatchObject({
    ok: false,
    error: { name: 'AnamnesisError', code: 'INVALID_INPUT', isAnamnesisError: true },
  });
  const item = await c.call('a', 'rememberMany', [[{ text: 'fine' }, { text: '   ' }]]);
  expect(item).toMatchObject({
    ok: false,
    error: { code: 'INVALID_INPUT', details: { index: 1 } },
  });
  const missing = await c.call('a', 'update', ['nope', { importance: 1 }]);
  expect(missing).toMatchObject({
    ok: false,
    error: { code: 'NOT_FOUND', details: { id: 'nope' } },
  });
  expect(ok(await c.call('a', 'stats', []))).toMatchObject({ memories: 0 }); // the batch was atomic

  ok(await c.close('a'));
  ok(await c.close('a')); // idempotent
  expect(await c.call('a', 'recall', ['anything'])).toMatchObject({
    ok: false,
    error: { code: 'CLOSED', isAnamnesisError: true },
  });
  // `await using` closes at the end of the block: the store was written, then closed.
  expect(await c.disposeThenCall({ name: 'disposed' })).toMatchObject({
    ok: false,
    error: { code: 'CLOSED' },
  });
  ok(await c.open('b', { name: 'disposed' }));
  expect(ok(await c.call('b', 'stats', []))).toMatchObject({ memories: 1 });
});

test('a reload keeps memories, links and usage; UI settings live in idb-keyval', async ({
  page,
}) => {
  let c = await openClientPage(page);
  ok(await c.open('a', { name: 'reload' }));
  ok(await c.call('a', 'rememberMany', [NOTES]));
  ok(await c.call('a', 'link', ['cat', 'trip', { kind: 'related' }]));
  ok(await c.call('a', 'markUsed', ['tax', 'used']));
  const before = ok(await c.call('a', 'recall', ['kitten sofa', { topK: 3 }]));
  expect(await c.saveSettings({ device: 'wasm', profile: 'memsense' }, 'reload')).toEqual({
    device: 'wasm',
    profile: 'memsense',
  });

  await page.reload();
  c = await openClientPage(page, { clear: false });
  ok(await c.open('a', { name: 'reload' }));
  expect(ok(await c.call('a', 'stats', []))).toMatchObject({
    memories: 3,
    links: 1,
    backend: 'opfs',
  });
  expect(ok(await c.call('a', 'get', ['cat']))).toMatchObject({ text: NOTES[0]!.text });
  expect(ok(await c.call('a', 'recall', ['kitten sofa', { topK: 3 }]))).toEqual(
    expect.arrayContaining(
      (before as { id: string }[]).map((r) => expect.objectContaining({ id: r.id })),
    ),
  );
  expect(ok(await c.call('a', 'verify', []))).toEqual([]);
  expect(await c.loadSettings('reload')).toEqual({ device: 'wasm', profile: 'memsense' });
  expect(await c.saveSettings({ profile: undefined }, 'reload')).toEqual({ device: 'wasm' });
  await c.clearSettings('reload');
  expect(await c.loadSettings('reload')).toEqual({});
});

const QUERIES = [
  'my pet cat',
  'paying taxes and money',
  'holiday travel by plane',
  'cooking dinner',
  'work meeting',
  'music practice',
];

test('the same probe set recalls the same top results on wasm and on WebGPU; a failed WebGPU session falls back to wasm in a fresh worker', async ({
  page,
}) => {
  const c = await openClientPage(page);
  const items = PROBES.map((text, i) => ({ id: `p${i}`, text }));
  const tops: Record<string, string[][]> = {};
  for (const device of ['wasm', 'webgpu'] as const) {
    const info = ok(await c.open(device, { name: `probes-${device}`, device }));
    expect(info.device).toBe(device);
    // wasm: the default model in plain JavaScript (loading beside the store, so not named yet);
    // WebGPU: ONNX Runtime. The same top results show the two give the same vectors.
    if (device === 'webgpu') expect(info.runtime).toBe('onnx');
    ok(await c.call(device, 'rememberMany', [items]));
    tops[device] = [];
    for (const q of QUERIES) {
      const hits = ok(await c.call(device, 'recall', [q, { topK: 5 }])) as { id: string }[];
      tops[device].push(hits.map((h) => h.id));
    }
    ok(await c.close(device));
  }
  expect(tops.webgpu).toEqual(tops.wasm);
  expect(tops.wasm![0]).toContain('p0');

  const fallback = ok(
    await c.open('fallback', {
      name: 'fallback',
      device: 'webgpu',
      simulateWebGpuFailure: true,
    } as OpenMemoryOptions),
  );
  expect(fallback.device).toBe('wasm');
  expect(fallback.fellBackFrom?.code).toBe('UNSUPPORTED');
  ok(await c.call('fallback', 'remember', [{ text: 'still works on wasm' }]));
});

test('two tabs on one store: one owner, writes from either are visible to both; closing the owner hands over', async ({
  page,
  context,
}) => {
  const a = await openClientPage(page);
  expect(ok(await a.open('m', { name: 'tabs' })).role).toBe('owner');
  const pageB = await context.newPage();
  const b = await openClientPage(pageB, { clear: false });
  const infoB = ok(await b.open('m', { name: 'tabs' }));
  expect(infoB).toMatchObject({ role: 'follower', backend: 'opfs', device: 'wasm' });

  ok(await a.call('m', 'remember', [NOTES[0]]));
  ok(await b.call('m', 'remember', [NOTES[1]]));
  // progress events reach a follower too
  const many = ok(await b.rememberManyWithProgress('m', [NOTES[2]!]));
  expect(many.ids).toEqual(['trip']);
  expect(many.events.length).toBeGreaterThan(0);
  for (const c of [a, b]) {
    expect(ok(await c.call('m', 'stats', []))).toMatchObject({ memories: 3, backend: 'opfs' });
    expect(ok(await c.call('m', 'get', ['tax']))).toMatchObject({ text: NOTES[1]!.text });
  }
  expect(ok(await b.call('m', 'recall', ['kitten', { topK: 2 }]))).toEqual(
    ok(await a.call('m', 'recall', ['kitten', { topK: 2 }])),
  );
  const error = await b.call('m', 'remember', [{ text: '' }]);
  expect(error).toMatchObject({
    ok: false,
    error: { code: 'INVALID_INPUT', isAnamnesisError: true },
  });

  await page.close(); // the owner tab goes: no goodbye
  await expect.poll(() => b.role('m'), { timeout: 15_000 }).toBe('owner');
  expect(ok(await b.call('m', 'stats', []))).toMatchObject({ memories: 3, backend: 'opfs' });
  ok(await b.call('m', 'remember', [{ text: 'written by the new owner' }]));
  expect(ok(await b.call('m', 'verify', []))).toEqual([]);
});

test("a script on the origin posting calls on the store's channel: close, prototype names and malformed calls are refused; the owner keeps working", async ({
  page,
  context,
}) => {
  const a = await openClientPage(page);
  expect(ok(await a.open('m', { name: 'hostile-channel' })).role).toBe('owner');
  ok(await a.call('m', 'rememberMany', [NOTES]));
  // Another page of the origin, with no client: it talks on the channel directly.
  const rogue = await context.newPage();
  await rogue.goto('/');
  const answers = await rogue.evaluate(async () => {
    const channel = new BroadcastChannel('anamnesis:hostile-channel');
    const inbox: Record<string, unknown>[] = [];
    channel.onmessage = (e: MessageEvent) => inbox.push(e.data as Record<string, unknown>);
    const wait = async (found: () => boolean, ms: number) => {
      for (const end = Date.now() + ms; !found() && Date.now() < end;)
        await new Promise((r) => setTimeout(r, 20));
    };
    channel.postMessage({ v: 4, t: 'hello', from: 'rogue' });
    await wait(() => inbox.some((m) => m.t === 'owner'), 5000);
    const owner = inbox.find((m) => m.t === 'owner')?.from;
    const calls: [unknown, unknown][] = [
      ['close', []],
      ['constructor', []],
      ['__proto__', []],
      ['once', ['op', 'forget', [{ tags: ['pets'] }]]],
      ['dropEverything', []],
      ['forget', 'cat'],
      ['get', ['cat']],
    ];
    const out: unknown[] = [];
    for (const [i, [method, args]] of calls.entries()) {
      channel.postMessage({
        v: 4, // PROTOCOL_VERSION (packages/client/src/tabs/protocol.ts)
        t: 'call',
        from: 'rogue',
        to: owner,
        id: i + 1,
        method,
        args,
        progress: false,
      });
      await wait(() => inbox.some((m) => m.t === 'result' && m.id === i + 1), 5000);
      const r = inbox.find((m) => m.t === 'result' && m.id === i + 1);
      out.push(r ? { ok: r.ok, code: (r.error as { code?: string } | undefined)?.code } : 'none');
    }
    channel.close();
    return out;
  });
  expect(answers).toEqual([
    { ok: false, code: 'UNSUPPORTED' },
    { ok: false, code: 'UNSUPPORTED' },
    { ok: false, code: 'UNSUPPORTED' },
    { ok: false, code: 'UNSUPPORTED' },
    { ok: false, code: 'UNSUPPORTED' },
    { ok: false, code: 'INVALID_INPUT' },
    { ok: true, code: undefined },
  ]);
  // The owner is open and has every memory.
  expect((ok(await a.call('m', 'recall', ['kitten'])) as { id: string }[])[0]!.id).toBe('cat');
  expect(ok(await a.call('m', 'stats', []))).toMatchObject({ memories: 3 });
  expect(ok(await a.call('m', 'verify', []))).toEqual([]);
});

test('three tabs remember the same text at once: one memory, one id; the same id at once: one succeeds', async ({
  page,
  context,
}) => {
  const tabs = [await openClientPage(page)];
  for (let i = 0; i < 2; i++)
    tabs.push(await openClientPage(await context.newPage(), { clear: false }));
  for (const t of tabs) ok(await t.open('m', { name: 'same-text' }));
  const tickets = await Promise.all(
    tabs.flatMap((t) =>
      [0, 1].map(() => t.start('m', 'remember', [{ text: 'one text, three tabs' }])),
    ),
  );
  const ids = await Promise.all(
    tickets.map((ticket, i) => tabs[Math.floor(i / 2)]!.settle(ticket)),
  );
  expect(new Set(ids.map((o) => ok(o))).size).toBe(1);
  const same = await Promise.all(
    tabs.map((t, i) => t.start('m', 'remember', [{ id: 'x', text: `tab ${i}` }])),
  );
  const outcomes = await Promise.all(same.map((ticket, i) => tabs[i]!.settle(ticket)));
  expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
  for (const o of outcomes.filter((o) => !o.ok))
    expect(o).toMatchObject({ error: { code: 'INVALID_INPUT' } });
  expect(ok(await tabs[0]!.call('m', 'stats', []))).toMatchObject({ memories: 2 });
  expect(ok(await tabs[2]!.call('m', 'verify', []))).toEqual([]);
});

test('calls in flight during a hand-over: reads are retried, writes are re-sent with their operation id and applied exactly once', async ({
  page,
  context,
}) => {
  const a = await openClientPage(page);
  ok(await a.open('m', { name: 'handover' }));
  ok(await a.call('m', 'rememberMany', [NOTES]));
  const pageB = await context.newPage();
  const b = await openClientPage(pageB, { clear: false });
  ok(await b.open('m', { name: 'handover' }));
  const pageC = await context.newPage();
  const c = await openClientPage(pageC, { clear: false });
  ok(await c.open('m', { name: 'handover' }));

  // A graceful close (close()): every call in flight completes, on the old owner or the next.
  const batch = Array.from({ length: 3000 }, (_, i) => ({
    text: `graceful note ${i} ${PROBES[i % 30]}`,
  }));
  const write = await b.start('m', 'rememberMany', [batch]);
  const read = await c.start('m', 'recall', ['Luna']);
  ok(await a.close('m'));
  expect(ok(await b.settle(write))).toHaveLength(3000);
  expect((ok(await c.settle(read)) as { id: string }[])[0]!.id).toBe('cat');
  await expect
    .poll(async () => [await b.role('m'), await c.role('m')].sort())
    .toEqual(['follower', 'owner']);
  const owner = (await b.role('m')) === 'owner' ? { c: b, page: pageB } : { c, page: pageC };
  const follower = owner.c === b ? c : b;
  expect(ok(await follower.call('m', 'stats', []))).toMatchObject({ memories: 3003 });

  // The owner tab vanishes with a batch and a read in flight from the follower.
  const batch2 = Array.from({ length: 3000 }, (_, i) => ({
    text: `abrupt note ${i} ${PROBES[i % 30]}`,
  }));
  const write2 = await follower.start('m', 'rememberMany', [batch2]);
  const read2 = await follower.start('m', 'recall', ['Luna']);
  await owner.page.close();
  // Whether or not the old owner committed it, the batch is answered, and stored once.
  const ids = ok(await follower.settle(write2)) as string[];
  expect(new Set(ids).size).toBe(3000);
  expect((ok(await follower.settle(read2)) as { id: string }[])[0]!.id).toBe('cat');
  expect(await follower.role('m')).toBe('owner');
  const { memories } = ok(await follower.call('m', 'stats', [])) as { memories: number };
  expect(memories).toBe(6003);
  expect(ok(await follower.call('m', 'get', [ids[2999]]))).toMatchObject({
    text: `abrupt note 2999 ${PROBES[2999 % 30]}`,
  });
  expect(ok(await follower.call('m', 'verify', []))).toEqual([]);
  const info = ok(await follower.info('m'));
  test.info().annotations.push({
    type: 'hand-over',
    description: `abrupt: the batch in flight was answered and stored once; the new owner retried opening ${info.lockRetries} times`,
  });
});

test('a worker killed in the middle of rememberMany leaves all or none of the batch; its calls time out', async ({
  page,
  context,
}) => {
  // Each step writes texts of its own: the first may store its batch whole (the worker is stopped
  // at its next task, maybe after the batch), and the second must not be deduplicated against it.
  const batch = (n: number, step: string) =>
    Array.from({ length: n }, (_, i) => ({ text: `${step} note ${i} ${PROBES[i % 30]}` }));
  const counts: number[] = [];
  // 1. The test hook: terminate the worker while the batch is being embedded. Chromium stops a
  //    busy worker at its next task or forcibly 2 s later: mid-batch here on this machine.
  let c = await openClientPage(page);
  ok(await c.open('m', { name: 'crash', timeoutMs: 1000 }));
  ok(await c.call('m', 'rememberMany', [NOTES]));
  const big = batch(12_000, 'terminated');
  const crashed = await c.crashDuringRememberMany('m', big, 'embedding', 'terminate');
  expect(crashed).toMatchObject({ ok: false, error: { code: 'TIMEOUT' } });
  ok(await c.close('m')); // bounded too: the worker does not answer
  await page.reload();
  c = await openClientPage(page, { clear: false });
  ok(await c.open('m', { name: 'crash' }));
  counts.push((ok(await c.call('m', 'stats', [])) as { memories: number }).memories);
  expect(ok(await c.call('m', 'verify', []))).toEqual([]);
  ok(await c.close('m'));
  expect([3, 3 + big.length]).toContain(counts[0]);

  // 2. A real crash while the batch's transaction is being written: the renderer process (page
  //    and worker) dies at the last progress event; a new tab reopens the store.
  const cdp = await context.newCDPSession(page);
  await page.exposeFunction('crashPoint', () => cdp.send('Page.crash').catch(() => undefined));
  c = await openClientPage(page, { clear: false });
  ok(await c.open('m', { name: 'crash' }));
  const before = (ok(await c.call('m', 'stats', [])) as { memories: number }).memories;
  const small = batch(4000, 'crashed');
  const gone = new Promise((resolve) => page.once('crash', resolve));
  void c.crashDuringRememberMany('m', small, 'writing', 'signal').catch(() => undefined);
  await gone;
  const next = await context.newPage();
  const d = await openClientPage(next, { clear: false });
  const info = ok(await d.open('m', { name: 'crash' }));
  counts.push((ok(await d.call('m', 'stats', [])) as { memories: number }).memories);
  expect([before, before + small.length]).toContain(counts[1]);
  expect(ok(await d.call('m', 'verify', []))).toEqual([]);
  expect(ok(await d.call('m', 'get', ['cat']))).toMatchObject({ id: 'cat' });
  test.info().annotations.push({
    type: 'crash',
    description: `terminated while embedding: ${counts[0]! - 3} of ${big.length} stored; renderer crashed while writing: ${counts[1]! - before} of ${small.length} stored (reopened after ${info.lockRetries} retries)`,
  });
});

test('a full disk gives QUOTA_EXCEEDED and leaves the store as it was', async ({
  page,
  context,
  baseURL,
}) => {
  const c = await openClientPage(page);
  ok(await c.open('m', { name: 'quota' }));
  ok(await c.call('m', 'rememberMany', [NOTES]));
  const { usage } = ok(await c.call('m', 'stats', [])) as { usage: number };
  const cdp = await context.newCDPSession(page);
  const origin = new URL(baseURL!).origin;
  await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 64 * 1024 });
  const batch = Array.from({ length: 3000 }, (_, i) => ({
    text: `quota note ${i} ${PROBES[i % 30]}`,
  }));
  const full = await c.call('m', 'rememberMany', [batch]);
  expect(full).toMatchObject({
    ok: false,
    error: { code: 'QUOTA_EXCEEDED', isAnamnesisError: true },
  });
  expect(ok(await c.call('m', 'stats', []))).toMatchObject({ memories: 3 });
  expect(ok(await c.call('m', 'verify', []))).toEqual([]);
  await cdp.send('Storage.overrideQuotaForOrigin', { origin });
  expect(ok(await c.call('m', 'rememberMany', [batch]))).toHaveLength(3000);
  expect(ok(await c.call('m', 'stats', []))).toMatchObject({ memories: 3003 });
});

test('a damaged store is STORE_CORRUPT at open; recoverMemory salvages it, keeps the damaged file and restores the store', async ({
  page,
}) => {
  const c = await openClientPage(page);
  ok(await c.open('m', { name: 'damaged' }));
  const notes = Array.from({ length: 300 }, (_, i) => ({
    id: `n${i}`,
    text: `damaged note ${i} ${PROBES[i % 30]}`,
    tags: [`t${i % 7}`],
  }));
  ok(await c.call('m', 'rememberMany', [notes]));
  ok(await c.call('m', 'link', ['n1', 'n2']));
  ok(await c.close('m'));
  // The SQLite header (the first 100 bytes of the file) zeroed: the file is no database now.
  await damageStore(page, 'damaged', 0, 100, 0);
  const corrupt = { ok: false, error: { code: 'STORE_CORRUPT', isAnamnesisError: true } };
  expect(await c.open('x', { name: 'damaged' })).toMatchObject(corrupt);

  // Salvage only: nothing is written, the store stays as it was.
  const salvaged = ok(await c.recover({ name: 'damaged' }));
  expect(salvaged).toMatchObject({ recovered: notes.length, unreadable: 0 });
  expect(salvaged.backup).toBeUndefined();
  expect(await c.open('x', { name: 'damaged' })).toMatchObject(corrupt);

  // Restore: the damaged file is kept beside the stores, the store is rebuilt from the salvage.
  const restored = ok(await c.recover({ name: 'damaged', restore: true }));
  expect(restored.recovered).toBe(notes.length);
  expect(restored.backup).toMatch(/^\.anamnesis\/damaged\.damaged-\d+\.sqlite3$/);
  expect(await c.storeFolder()).toContain(restored.backup!.split('/')[1]);
  ok(await c.open('m', { name: 'damaged' }));
  expect(ok(await c.call('m', 'stats', []))).toMatchObject({ memories: notes.length, links: 1 });
  expect(ok(await c.call('m', 'verify', []))).toEqual([]);
  expect(ok(await c.call('m', 'get', ['n42']))).toMatchObject({ text: notes[42]!.text });
  const hits = ok(await c.call('m', 'recall', [notes[7]!.text])) as { id: string }[];
  expect(hits[0]!.id).toBe('n7');

  // A store open in a tab cannot be salvaged under it; a store that does not exist is NOT_FOUND.
  expect(await c.recover({ name: 'damaged' })).toMatchObject({
    ok: false,
    error: { code: 'STORE_LOCKED' },
  });
  expect(await c.recover({ name: 'nothing-here' })).toMatchObject({
    ok: false,
    error: { code: 'NOT_FOUND' },
  });
});

test("the model's files are kept in OPFS by their SHA-256: a reload fetches none of them, a damaged copy is fetched again", async ({
  page,
  context,
  request,
}) => {
  const MODEL = '/models/anamnesis/static-multi-64d/';
  const fetched: string[] = [];
  context.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path.startsWith(MODEL) && path !== `${MODEL}config.json`)
      fetched.push(path.slice(MODEL.length));
  });
  const manifest = (await (await request.get('/models/manifest.json')).json()) as {
    files: Record<string, { sha256: string; bytes: number }>;
  };
  const digest = (file: string) => manifest.files[`anamnesis/static-multi-64d/${file}`]!.sha256;
  const kept = [
    'tokenizer.json',
    'tokenizer_config.json',
    'onnx/model_quantized.onnx',
    'neighbours.bin',
  ];
  const keptNames = () =>
    page.evaluate(async () => {
      const dir = await (
        await navigator.storage.getDirectory()
      ).getDirectoryHandle('.anamnesis-models');
      const names: string[] = [];
      for await (const name of (dir as unknown as { keys(): AsyncIterable<string> }).keys())
        names.push(name);
      return names.sort();
    });
  const answers = async (c: Awaited<ReturnType<typeof openClientPage>>) => {
    ok(await c.open('a', { name: 'kept-model' }));
    const hits = ok(await c.call('a', 'recall', ['my cat', { noCache: true }])) as {
      id: string;
      similarity: number;
    }[];
    // not ASCII: the full tokenizer, which reads tokenizer.json when it is first needed
    const other = ok(await c.call('a', 'recall', ['meine Kätzchen', { noCache: true }])) as {
      id: string;
      similarity: number;
    }[];
    ok(await c.close('a'));
    return [...hits, ...other].map((h) => [h.id, h.similarity]);
  };

  let c = await openClientPage(page);
  ok(await c.open('a', { name: 'kept-model' }));
  ok(await c.call('a', 'rememberMany', [NOTES]));
  ok(await c.close('a'));
  const first = await answers(c);
  expect(first[0]![0]).toBe('cat');
  expect(first[0]![1]).toBeGreaterThan(0); // the model answered, not the lexical legs alone
  expect([...new Set(fetched)].sort()).toEqual([...kept].sort());
  // and the tokenizer as the shortcut reads it, packed, kept between tasks after the open
  const packed = `${digest('tokenizer.json')}.word-piece-1`;
  await expect.poll(keptNames).toEqual([...kept.map(digest), packed].sort());

  // a reload (a new worker): every file from its copy, the same answers
  fetched.length = 0;
  c = await openClientPage(page, { clear: false });
  expect(await answers(c)).toEqual(first);
  expect(fetched).toEqual([]);

  // a copy damaged (same size, other bytes): fetched again and kept again, the same answers;
  // the packed tokenizer damaged: read from tokenizer.json's copy and packed again
  const damage = (name: string) =>
    page.evaluate(async (name) => {
      const dir = await (
        await navigator.storage.getDirectory()
      ).getDirectoryHandle('.anamnesis-models');
      const handle = await dir.getFileHandle(name);
      const writable = await handle.createWritable({ keepExistingData: true });
      await writable.write({ type: 'write', position: 1000, data: new Uint8Array(64).fill(7) });
      await writable.close();
    }, name);
  const damaged = (name: string) =>
    page.evaluate(async (name) => {
      const dir = await (
        await navigator.storage.getDirectory()
      ).getDirectoryHandle('.anamnesis-models');
      const file = await (await dir.getFileHandle(name)).getFile();
      const bytes = new Uint8Array(await file.slice(1000, 1064).arrayBuffer());
      return bytes.every((b) => b === 7);
    }, name);
  await damage(digest('onnx/model_quantized.onnx'));
  await damage(packed);
  expect(await damaged(packed)).toBe(true);
  c = await openClientPage(page, { clear: false });
  expect(await answers(c)).toEqual(first);
  expect(fetched).toEqual(['onnx/model_quantized.onnx']);
  fetched.length = 0;
  c = await openClientPage(page, { clear: false });
  expect(await answers(c)).toEqual(first);
  expect(fetched).toEqual([]);
  expect(await damaged(packed)).toBe(false);
  expect(await keptNames()).toEqual([...kept.map(digest), packed].sort());
});

test.describe('the example app (apps/example, built by its own Vite config with anamnesis())', () => {
  test.use({ baseURL: EXAMPLE_URL });

  test('remembers, recalls and shows results; a reload keeps them; stats say opfs', async ({
    page,
  }) => {
    await page.goto('/');
    await page.evaluate(async () => {
      // a clean origin: nothing may hold OPFS files yet, so clear before the app opens its store
      const root = await navigator.storage.getDirectory();
      for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) {
        await root.removeEntry(name, { recursive: true });
      }
    });
    await page.reload();
    await expect(page.locator('#status')).toHaveText('0 memories · opfs · wasm · owner tab');
    const texts = [
      'I adopted a kitten named Luna',
      'the tax deadline is in april',
      'we camped by a mountain lake',
    ];
    for (const [i, text] of texts.entries()) {
      await page.fill('#text', text);
      await page.click('#remember button');
      await expect(page.locator('#status')).toHaveText(
        `${i + 1} memories · opfs · wasm · owner tab`,
      );
    }
    await page.fill('#query', 'my cat');
    await page.click('#recall button');
    await expect(page.locator('#results li').first()).toContainText('kitten named Luna');

    await page.reload();
    await expect(page.locator('#status')).toHaveText('3 memories · opfs · wasm · owner tab');
    await page.fill('#query', 'holiday by the lake');
    await page.click('#recall button');
    await expect(page.locator('#results li').first()).toContainText('mountain lake');
  });

  test('as a person: texts submitted at t = 0, one after another, and a search, all answered', async ({
    page,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto('/', { waitUntil: 'commit' });
    const texts = ['zqa the first thought', 'zqb a second thought', 'zqc my kitten Luna'];
    for (const text of texts) {
      await page.fill('#text', text);
      await page.click('#remember button'); // no waiting for anything
    }
    await page.fill('#query', 'zqc');
    await page.click('#recall button');
    await expect(page.locator('#results li').first()).toContainText('my kitten Luna');
    await expect(page.locator('#status')).toContainText(/^\d+ memories/);
    for (const text of texts) {
      await page.fill('#query', text.split(' ')[0]!);
      await page.click('#recall button');
      await expect(page.locator('#results li').first()).toContainText(text);
    }
    expect(errors).toEqual([]);
  });

  test('the plugin serves the model and sqlite3.wasm, no ONNX Runtime by default, and 404s what is missing', async ({
    request,
    page,
  }) => {
    for (const [path, type] of [
      ['/models/anamnesis/static-multi-64d/config.json', 'application/json'],
      ['/models/anamnesis/static-multi-64d/onnx/model_quantized.onnx', 'application/octet-stream'],
    ] as const) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      expect(response.headers()['content-type'], path).toContain(type);
    }
    // `anamnesis()` without `ortBuilds` emits no ONNX Runtime file (the default model never loads it).
    for (const path of [
      '/models/anamnesis/static-multi-64d/onnx/model.onnx',
      '/models/anamnesis/nope/config.json',
      '/ort/ort-wasm-simd-threaded.wasm',
      '/ort/ort-wasm-simd-threaded.asyncify.mjs',
      '/ort/ort-wasm-simd-threaded.jsep.wasm',
    ]) {
      expect((await request.get(path)).status(), path).toBe(404);
    }
    const seen: string[] = [];
    page.on('response', (r) => {
      const path = new URL(r.url()).pathname;
      if (/\.(wasm|onnx|mjs)$|^\/ort\//.test(path)) seen.push(`${r.status()} ${path}`);
    });
    await page.goto('/');
    await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
    // The store is ready first; the model loads beside it, in plain JavaScript: its weights are
    // read from the ONNX file, and ONNX Runtime (anything under /ort/) is never fetched.
    await expect
      .poll(() => seen)
      .toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^200 \/assets\/sqlite3-[\w-]+\.wasm$/),
          '200 /models/anamnesis/static-multi-64d/onnx/model_quantized.onnx',
        ]),
      );
    await page.waitForTimeout(500);
    expect(seen.filter((line) => line.includes('/ort/'))).toEqual([]);
  });
});
