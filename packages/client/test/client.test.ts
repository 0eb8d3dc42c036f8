/**
 * The client in Node: the real worker API and engine (in memory) behind Comlink over a
 * MessageChannel, tabs simulated with a shared lock registry and Node's BroadcastChannel. The same
 * behaviour runs in Chromium in `e2e/tests/client.spec.ts`; here each rule is pinned down
 * deterministically.
 */
import { modelRootPath } from '@anamnesis/model-default';
import { AnamnesisError, type ErrorCode } from '@anamnesis/errors';
import * as Comlink from 'comlink';
import { describe, expect, it, vi } from 'vitest';

import { connectMemory, openMemory, type MemoryClient, type MemoryState } from '../src/index.ts';
import { terminateWorker } from '../src/testing.ts';
import { fromWireError, reply, toWireError, unwrap } from '../src/wire.ts';
import { PROTOCOL_VERSION } from '../src/tabs/protocol.ts';
import { closeAfterTest, LockRegistry, newTab, open, until } from './opened.ts';

const NOTES = [
  { id: 'cat', text: 'I adopted a kitten named Luna and she sleeps on the sofa', tags: ['pets'] },
  { id: 'tax', text: 'the quarterly tax filing deadline is in april, send receipts' },
  { id: 'trip', text: 'we hiked along the mountain trail and camped by a lake' },
];

async function rejection(p: Promise<unknown>): Promise<AnamnesisError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AnamnesisError);
    return e as AnamnesisError;
  }
  throw new Error('expected a rejection');
}

async function rejectsWith(p: Promise<unknown>, code: ErrorCode): Promise<AnamnesisError> {
  const e = await rejection(p);
  expect(e.code).toBe(code);
  return e;
}

describe('errors across the boundary', () => {
  it('keeps code, details, message and cause of an AnamnesisError through Comlink, with no global handler', async () => {
    const before = new Map(Comlink.transferHandlers);
    const { port1, port2 } = new MessageChannel();
    const fail = (kind: string) =>
      reply(async () => {
        if (kind === 'typed') {
          throw new AnamnesisError('NOT_FOUND', 'x9', {
            details: { id: 'x9', fn: () => 1 },
            cause: new TypeError('inner'),
          });
        }
        if (kind === 'plain') throw new RangeError('plain');
        // eslint-disable-next-line @typescript-eslint/only-throw-error -- a non-Error thrown value must cross too
        throw { not: 'an error' };
      });
    Comlink.expose({ fail }, port1);
    const remote = Comlink.wrap<{ fail: typeof fail }>(port2);
    const call = (kind: string) => remote.fail(kind).then(unwrap);
    const typed = await rejectsWith(call('typed'), 'NOT_FOUND');
    expect(typed.message).toBe('No memory has this id: x9');
    expect(typed.details).toEqual({ id: 'x9' }); // functions dropped, data kept
    expect((typed.cause as Error).message).toBe('inner');
    const plain = await call('plain').catch((e: unknown) => e);
    expect(plain).toBeInstanceOf(Error);
    expect(plain).toMatchObject({ name: 'RangeError', message: 'plain' });
    expect(await call('value').catch((e: unknown) => e)).toMatchObject({
      message: '[object Object]',
    });
    // Comlink's handlers are as they were: an app's own workers behave as Comlink documents
    expect(new Map(Comlink.transferHandlers)).toEqual(before);
    port1.close();
    port2.close();
  });

  it('round-trips the wire form used over BroadcastChannel', () => {
    const e = fromWireError(
      structuredClone(toWireError(new AnamnesisError('OWNER_CHANGED', 'm', { details: { a: 1 } }))),
    );
    expect(e).toBeInstanceOf(AnamnesisError);
    expect(e).toMatchObject({ code: 'OWNER_CHANGED', details: { a: 1 } });
    expect(e.message).toBe('The owner of the store changed while the call was in flight: m');
  });
});

describe('one tab', () => {
  it('remembers and recalls through the worker; stats carry storage figures; info says how it opened', async () => {
    const m = await open(newTab(new LockRegistry()), { name: 'one' });
    expect(m.role).toBe('owner');
    expect(m.info).toMatchObject({
      role: 'owner',
      backend: 'memory',
      device: 'cpu',
      lockRetries: 0,
    });
    expect(m.info.backendReason).toContain('worker');
    expect(await m.rememberMany(NOTES)).toEqual(['cat', 'tax', 'trip']);
    const [hit] = await m.recall('my cat', { explain: true });
    expect(hit!.id).toBe('cat');
    expect(hit!.explain!.contributions.length).toBeGreaterThan(0);
    const stats = await m.stats();
    expect(stats).toMatchObject({ memories: 3, backend: 'memory', persisted: null });
    expect(await m.verify()).toEqual([]);
  });

  it('forwards progress callbacks of rememberMany and import', async () => {
    const m = await open(newTab(new LockRegistry()), { name: 'progress' });
    const events: unknown[] = [];
    await m.rememberMany(NOTES, { onProgress: (e) => events.push(e) });
    expect(events).toContainEqual({ phase: 'embed', loaded: 3, total: 3 });
    const jsonl = await m.export();
    const other = await open(newTab(new LockRegistry()), { name: 'progress2' });
    const imported: unknown[] = [];
    expect(await other.import(jsonl, { onProgress: (e) => imported.push(e) })).toBe(3);
    // the export has no vectors: the import embeds the three texts and says so
    expect(imported).toContainEqual({ phase: 'import', loaded: 3, total: 3 });
  });

  it('typed errors, CLOSED after close (idempotent), and Symbol.asyncDispose', async () => {
    const tab = newTab(new LockRegistry());
    const m = await open(tab, { name: 'errors' });
    await rejectsWith(m.remember({ text: '' }), 'INVALID_INPUT');
    const e = await rejectsWith(m.update('nope', { importance: 1 }), 'NOT_FOUND');
    expect(e.details).toEqual({ id: 'nope' });
    await m.close();
    await m.close();
    await rejectsWith(m.recall('x'), 'CLOSED');
    await rejectsWith(openMemory({ name: 'bad name' }, tab.env), 'INVALID_INPUT');
    await rejectsWith(openMemory({ timeoutMs: -1 }, tab.env), 'INVALID_INPUT');
    await rejectsWith(openMemory({ device: 'gpu' as unknown as 'wasm' }, tab.env), 'INVALID_INPUT');
    let escaped: MemoryClient;
    {
      await using d = await open(tab, { name: 'disposed' });
      escaped = d;
    }
    await rejectsWith(escaped.stats(), 'CLOSED');
  });

  it('a call to a dead worker times out instead of hanging; so does opening one', async () => {
    const tab = newTab(new LockRegistry());
    const m = await open(tab, { name: 'dead', timeoutMs: 200 });
    expect(terminateWorker(m)).toBe(true);
    const start = Date.now();
    await rejectsWith(m.stats(), 'TIMEOUT');
    expect(Date.now() - start).toBeLessThan(2_000);
    await m.close(); // bounded as well
    const silent = {
      ...tab.env,
      createWorker: () => {
        const { port1, port2 } = new MessageChannel();
        const terminate = () => {
          port1.close();
          port2.close();
        };
        return Object.assign(port2, { terminate });
      },
    };
    await rejectsWith(openMemory({ name: 'silent', openTimeoutMs: 200 }, silent), 'TIMEOUT');
  });
});

describe('tabs', () => {
  it('one owner per store name; a follower forwards calls and sees the same data', async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const ma = await open(a, { name: 'shared' });
    const mb = await open(b, { name: 'shared' });
    expect([ma.role, mb.role]).toEqual(['owner', 'follower']);
    expect(mb.info).toMatchObject({ role: 'follower', device: 'cpu', backend: 'memory' });
    // the worker a tab starts while it asks for the lock: a follower stops it, having sent it nothing
    expect(a.workers.map((w) => [w.opened, w.terminated])).toEqual([[true, false]]);
    expect(b.workers.map((w) => [w.opened, w.terminated])).toEqual([[false, true]]);
    await ma.remember(NOTES[0]!);
    await mb.remember(NOTES[1]!);
    const events: unknown[] = [];
    await mb.rememberMany([NOTES[2]!], { onProgress: (e) => events.push(e) });
    expect(events).toContainEqual({ phase: 'embed', loaded: 1, total: 1 });
    expect((await mb.stats()).memories).toBe(3);
    expect(await mb.recall('kitten')).toEqual(await ma.recall('kitten'));
    // a pin forwarded by the follower (a write with an operation id) is the owner's too
    expect(await mb.pin('cat')).toBe(true);
    expect((await ma.get('cat'))!.pinned).toBe(true);
    expect(await ma.pin('cat', false)).toBe(true);
    expect((await mb.get('cat'))!.pinned).toBe(false);
    await rejectsWith(mb.pin('nobody'), 'NOT_FOUND');
    await rejectsWith(mb.remember({ text: ' ' }), 'INVALID_INPUT');
    // another name is another store, with its own owner
    const other = await open(b, { name: 'other' });
    expect(other.role).toBe('owner');
  });

  it('createdAt and updatedAt as ISO 8601 strings reach the engine from the owner and a follower (issue 71)', async () => {
    const registry = new LockRegistry();
    const ma = await open(newTab(registry), { name: 'dates' });
    const mb = await open(newTab(registry), { name: 'dates' });
    expect([ma.role, mb.role]).toEqual(['owner', 'follower']);
    const a = await ma.remember({ text: 'dentist on Friday', createdAt: '2026-06-12' });
    const [b] = await mb.rememberMany([
      { text: 'flight to Lisbon', createdAt: '2026-06-12T11:30:00+02:00' },
    ]);
    await mb.import(
      JSON.stringify({
        id: 'c',
        text: 'hotel booked',
        createdAt: '2026-06-01',
        updatedAt: '2026-06-02T00:00Z',
      }),
    );
    expect((await mb.get(a))!.createdAt).toBe(Date.UTC(2026, 5, 12));
    expect((await ma.get(b!))!.createdAt).toBe(Date.UTC(2026, 5, 12, 9, 30));
    expect(await ma.get('c')).toMatchObject({
      createdAt: Date.UTC(2026, 5, 1),
      updatedAt: Date.UTC(2026, 5, 2),
    });
    await rejectsWith(mb.remember({ text: 'when?', createdAt: '12/06/2026' }), 'INVALID_INPUT');
  });

  it('a graceful close hands over: calls in flight complete (the old owner finishes or the new one runs them)', async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const ma = await open(a, { name: 'graceful' });
    const roles: string[] = [];
    const mb = await open(b, { name: 'graceful', onRoleChange: (r) => roles.push(r) });
    await ma.rememberMany(NOTES);
    const write = mb.remember({ text: 'written while the owner closes' });
    const read = mb.get('cat');
    await ma.close();
    // (in memory here, so what the old owner held went with it; on OPFS it stays: see e2e)
    await expect(write).resolves.toMatch(/^[0-9A-Z]{26}$/);
    await read; // resolves (with what the new owner has)
    // calls after the hand-over run in b's own worker
    await until(() => mb.role === 'owner');
    expect(roles).toEqual(['owner']);
    expect(b.workers.filter((w) => w.opened && !w.terminated)).toHaveLength(1);
    const late = await mb.remember({ text: 'after the hand-over' });
    expect(await mb.get(late)).toMatchObject({ text: 'after the hand-over' });
  });

  it('an owner tab that vanishes: a follower takes over; calls in flight are sent again and answered', async () => {
    const registry = new LockRegistry();
    const [a, b, c] = [newTab(registry), newTab(registry), newTab(registry)];
    const ma = await open(a, { name: 'abrupt', timeoutMs: 300 });
    const mb = await open(b, { name: 'abrupt' });
    const mc = await open(c, { name: 'abrupt' });
    await ma.rememberMany(NOTES);
    // a's worker stops answering (it "crashed"), then the tab goes without a goodbye
    terminateWorker(ma);
    const write = mb.remember({ text: 'in flight when the owner went' });
    const read = mc.recall('kitten');
    const readB = mb.stats();
    await new Promise((r) => setTimeout(r, 50)); // the calls reach the dying owner
    a.kill();
    await until(() => mb.role === 'owner' || mc.role === 'owner');
    expect(mb.role === 'owner' ? mc.role : mb.role).toBe('follower');
    // b's write went again, with its operation id, to the new owner (whichever tab it is)
    const id = await write;
    expect(await mb.get(id)).toMatchObject({ text: 'in flight when the owner went' });
    expect(await readB).toMatchObject({ backend: 'memory' }); // retried on the new owner
    expect(Array.isArray(await read)).toBe(true);
    // the store works under its new owner (in memory here: a's data went with a)
    await mc.remember({ text: 'after the take-over' });
    expect((await mb.stats()).memories).toBe(2);
  });

  it('calls made at once after connectMemory wait for the store and run in order (owner and follower)', async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const models = await modelRootPath();
    const states: MemoryState[] = [];
    const parts: string[] = [];
    const ma = connectMemory(
      {
        name: 'early',
        device: 'auto',
        assets: { models },
        onStateChange: (s) => states.push(s),
        onReady: (part) => parts.push(`a:${part}`),
      },
      a.env,
    );
    const mb = connectMemory(
      {
        name: 'early',
        device: 'auto',
        assets: { models },
        onReady: (part) => parts.push(`b:${part}`),
      },
      b.env,
    );
    expect(ma.readiness).toEqual({ model: false, store: false });
    closeAfterTest(ma, mb);
    expect(ma.state).toBe('opening');
    expect(() => ma.info).toThrow(AnamnesisError);
    // no await between these: each tab's calls are answered in the order they were made
    const first = ma.remember({ id: 'n1', text: 'first note about the garden' });
    const edit = ma.update('n1', { text: 'first note about the garden, edited' });
    const found = ma.recall('garden');
    const fromB = mb.remember({ id: 'n2', text: 'a note from the other tab' });
    const seenByB = mb.get('n2');
    expect(await first).toBe('n1');
    expect((await edit).text).toBe('first note about the garden, edited');
    expect((await found)[0]?.id).toBe('n1');
    expect(await fromB).toBe('n2');
    expect(await seenByB).toMatchObject({ text: 'a note from the other tab' });
    await ma.ready;
    expect(ma.state).toBe('ready');
    expect(states).toEqual(['ready']);
    await mb.ready;
    // the owner hears the store, then the model (loaded beside it); the follower both when it
    // finds the owner
    await vi.waitFor(() => expect(ma.readiness.model).toBe(true));
    expect(parts.filter((p) => p.startsWith('a:'))).toEqual(['a:store', 'a:model']);
    expect(parts.filter((p) => p.startsWith('b:'))).toEqual(['b:model', 'b:store']);
    expect(ma.readiness).toEqual({ model: true, store: true });
    expect([ma.role, mb.role].sort()).toEqual(['follower', 'owner']);
    await ma.close();
    expect(ma.state).toBe('closed');
  });

  it("device 'webgpu' without a WebGPU adapter: the model loads elsewhere in the same worker, and info says so at open, to owner and follower", async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const models = await modelRootPath();
    // connectMemory, where navigator.gpu is missing (Node, as Firefox ESR): the open waits for the
    // model, so that its info already says where it runs
    const ma = connectMemory({ name: 'no-gpu', device: 'webgpu', assets: { models } }, a.env);
    closeAfterTest(ma);
    await ma.ready;
    expect(a.workers).toHaveLength(1); // no fresh worker: nothing was poisoned
    expect(ma.info.selection).toEqual({ requested: 'webgpu', device: 'cpu', reason: 'no-webgpu' });
    expect(ma.info.device).toBe('cpu'); // Node's stand-in for a browser's wasm
    expect(ma.info.fellBackFrom).toEqual({
      code: 'UNSUPPORTED',
      message: 'WebGPU has no adapter here: the model runs on cpu',
    });
    const mb = await open(b, { name: 'no-gpu', device: 'webgpu' });
    expect(mb.role).toBe('follower');
    expect(mb.info.fellBackFrom).toEqual(ma.info.fellBackFrom);
    await mb.rememberMany(NOTES);
    expect((await ma.recall('my cat'))[0]?.id).toBe('cat');
    await ma.close();

    // openMemory where navigator.gpu is there but requestAdapter() gives null (Chromium headless
    // without --enable-unsafe-webgpu)
    const requestAdapter = vi.fn(() => Promise.resolve(null));
    vi.stubGlobal('navigator', { gpu: { requestAdapter } });
    try {
      const c = newTab(new LockRegistry());
      const mc = await open(c, { name: 'null-adapter', device: 'webgpu' });
      expect(requestAdapter).toHaveBeenCalled();
      expect(mc.info.selection).toMatchObject({ requested: 'webgpu', reason: 'no-webgpu' });
      expect(mc.info.fellBackFrom?.code).toBe('UNSUPPORTED');
      expect(c.workers).toHaveLength(1);
      await mc.remember(NOTES[0]!);
      expect((await mc.recall('my cat'))[0]?.id).toBe('cat');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('follow: a page that never owns the store waits for an owner, forwards to it, and waits for the next one', async () => {
    const registry = new LockRegistry();
    const [popup, offscreen, next] = [newTab(registry), newTab(registry), newTab(registry)];
    const models = await modelRootPath();
    const follower = connectMemory(
      { name: 'follow', device: 'auto', assets: { models }, follow: true },
      popup.env,
    );
    closeAfterTest(follower);
    const early = follower.remember({ id: 'p1', text: 'a page remembered from the popup' });
    await new Promise((r) => setTimeout(r, 100));
    expect(follower.state).toBe('opening'); // no owner yet, and it does not become one
    const owner = await open(offscreen, { name: 'follow' });
    expect(await early).toBe('p1');
    expect(await owner.get('p1')).toMatchObject({ text: 'a page remembered from the popup' });
    expect(follower.role).toBe('follower');
    await owner.close();
    const late = follower.get('p1'); // waits for the next owner
    const second = await open(next, { name: 'follow' });
    expect(second.role).toBe('owner');
    await late; // answered by the new owner (a fresh in-memory store here)
    expect(follower.role).toBe('follower');
    const noShare = connectMemory({ storage: 'memory', follow: true }, newTab(registry).env);
    closeAfterTest(noShare);
    await rejectsWith(noShare.ready, 'UNSUPPORTED');
  });

  it('openMemory: a model that cannot load fails the open, ready and every call, with its error', async () => {
    const registry = new LockRegistry();
    const opening = openMemory(
      {
        name: 'broken',
        model: 'no-such-model',
        device: 'auto',
        assets: { models: await modelRootPath() },
      },
      newTab(registry).env,
    );
    await rejectsWith(opening, 'MODEL_LOAD_FAILED');
  });

  it('connectMemory: the store opens beside the model; while it loads, and if it fails, recall is partial and writes are kept', async () => {
    const registry = new LockRegistry();
    const m = connectMemory(
      {
        name: 'lexical',
        model: 'no-such-model',
        device: 'auto',
        assets: { models: await modelRootPath() },
      },
      newTab(registry).env,
    );
    closeAfterTest(m);
    const early = m.remember({ id: 'k', text: 'typed before the model failed' });
    await m.ready;
    expect(await early).toBe('k');
    await vi.waitFor(async () => expect((await m.stats()).model.state).toBe('failed'));
    const [hit] = await m.recall('typed', { explain: true });
    expect(hit).toMatchObject({ id: 'k', partial: true, similarity: 0 });
    expect(hit!.explain!.partial).toMatch(/failed to load/);
    expect(m.readiness).toEqual({ store: true, model: false });
    expect(m.state).toBe('ready');
  });

  it('a follower waiting for an owner that never answers times out', async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const ma = await open(a, { name: 'quiet' });
    for (const ch of a.channels) ch.close(); // a stops listening but keeps the lock
    await rejectsWith(open(b, { name: 'quiet', openTimeoutMs: 300 }), 'TIMEOUT');
    expect(ma.role).toBe('owner');
  });
});

/**
 * Stray or hostile messages on a store's BroadcastChannel (issue #28). Any script of the origin
 * can post there (it could open the store itself, too: the origin is the trust boundary), so this
 * is about robustness: the owner runs only what a follower legitimately forwards, with arguments
 * of the expected shape, and keeps working.
 */
describe('hostile tab messages', () => {
  /** A script on the origin that talks on the store's channel: finds the owner, sends calls. */
  async function rogue(name: string) {
    const channel = new BroadcastChannel(`anamnesis:${name}`);
    const received: Record<string, unknown>[] = [];
    channel.addEventListener('message', (e: MessageEvent) => {
      received.push(e.data as Record<string, unknown>);
    });
    channel.postMessage({ v: PROTOCOL_VERSION, t: 'hello', from: 'rogue' });
    await until(() => received.some((m) => m.t === 'owner'));
    const owner = received.find((m) => m.t === 'owner')!.from as string;
    let id = 100;
    return {
      owner,
      received,
      post: (message: Record<string, unknown>) =>
        channel.postMessage({ v: PROTOCOL_VERSION, ...message }),
      /** Sends a call to the owner and waits briefly for its answer (undefined: none came). */
      async call(method: unknown, args: unknown, extra: Record<string, unknown> = {}) {
        const callId = ++id;
        channel.postMessage({
          v: PROTOCOL_VERSION,
          t: 'call',
          from: 'rogue',
          to: owner,
          id: callId,
          method,
          args,
          progress: false,
          ...extra,
        });
        const end = Date.now() + 400;
        while (Date.now() < end) {
          const answer = received.find((m) => m.t === 'result' && m.id === callId);
          if (answer) return answer;
          await new Promise((r) => setTimeout(r, 10));
        }
        return undefined;
      },
      close: () => channel.close(),
    };
  }

  it('refuses close, prototype names, unknown methods and malformed arguments; the owner keeps working', async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const owner = await open(a, { name: 'hostile' });
    const follower = await open(b, { name: 'hostile' });
    await owner.rememberMany(NOTES);
    const r = await rogue('hostile');
    try {
      const refused = [
        ['close', []],
        ['once', ['op', 'remember', [{ text: 'x' }]]],
        ['constructor', []],
        ['__proto__', []],
        ['toString', []],
        ['hasOwnProperty', ['recall']],
        ['dropEverything', []],
        [{ name: 'close' }, []],
        [['close'], []],
        ['recall', 'kitten'], // args not an array
        ['forget', [{ tags: ['pets'] }, 1, 2, 3, 4]], // more arguments than forget takes
      ] as const;
      for (const [method, args] of refused) {
        const answer = await r.call(method, args);
        // Well addressed, so answered: with an error, never run.
        expect(answer, JSON.stringify(method)).toMatchObject({ ok: false, to: 'rogue' });
        expect((answer!.error as { code: string }).code).toMatch(/^(UNSUPPORTED|INVALID_INPUT)$/);
      }
      // Calls with an id or sender of the wrong type are dropped; a bad flag is refused.
      expect(await r.call('stats', [], { id: 'one' })).toBeUndefined();
      expect(await r.call('stats', [], { from: 7 })).toBeUndefined();
      expect(await r.call('stats', [], { progress: 'yes' })).toMatchObject({ ok: false });
      expect(
        await r.call('remember', [{ text: 'planted' }], { op: { not: 'a string' } }),
      ).toMatchObject({ ok: false });
      r.post({ t: 'owner', from: 'rogue', info: 'not an info' });
      r.post({ t: 'result', from: r.owner, to: 'x', id: 1, ok: false, error: 42 });
      r.post({ t: 'nonsense', from: 'rogue' });
      // The owner is open and unchanged; the follower still reaches it.
      expect((await owner.recall('kitten'))[0]!.id).toBe('cat');
      expect((await owner.stats()).memories).toBe(3);
      expect((await follower.stats()).memories).toBe(3);
      expect(await follower.get('cat')).toMatchObject({ id: 'cat' });
      expect(follower.info.role).toBe('follower');
      // What a follower legitimately forwards still works from the channel.
      expect(await r.call('get', ['cat'])).toMatchObject({ ok: true, value: { id: 'cat' } });
    } finally {
      r.close();
    }
  });

  it("the worker runs only the engine's forwarded methods, never close or a prototype member", async () => {
    const registry = new LockRegistry();
    const tab = newTab(registry);
    const memory = await open(tab, { name: 'worker-allowlist' });
    await memory.remember(NOTES[0]!);
    const api = tab.workers[0]!.api;
    for (const method of ['close', 'once', 'constructor', '__proto__', 'toString', 'nope']) {
      const e = await rejection(api.call(method as never, [] as never));
      expect(e.code, method).toBe('UNSUPPORTED');
    }
    await rejectsWith(api.call('recall', 'kitten' as never), 'INVALID_INPUT');
    await rejectsWith(api.call('get', ['cat', 1, 2, 3] as never), 'INVALID_INPUT');
    await rejectsWith(api.call('get', ['cat'], undefined, 42 as never), 'INVALID_INPUT');
    expect((await memory.recall('kitten'))[0]!.id).toBe('cat');
  });
});
