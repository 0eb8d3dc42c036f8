/**
 * Change events and live recall: in Node, tabs simulated as in `client.test.ts` (the real worker
 * API and engine behind Comlink, Node's BroadcastChannel), and `liveRecall`'s ordering rules on a
 * source whose answers the test releases one by one.
 */
import { describe, expect, it } from 'vitest';

import type { RecallResult } from '@anamnesis/engine';
import { liveRecall, type LiveSource, type LiveUpdate, type MemoryChange } from '../src/index.ts';
import { PROTOCOL_VERSION } from '../src/tabs/protocol.ts';
import { terminateWorker } from '../src/testing.ts';
import { LockRegistry, newTab, open, until } from './opened.ts';

describe('subscribe: every tab hears every committed change', () => {
  it('owner and follower hear writes from either tab, with kind and ids, in commit order', async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const ma = await open(a, { name: 'changes' });
    const mb = await open(b, { name: 'changes' });
    const heardA: MemoryChange[] = [];
    const heardB: MemoryChange[] = [];
    ma.subscribe((c) => heardA.push(c));
    const stopB = mb.subscribe((c) => heardB.push(c));
    const x = await ma.remember({ text: 'the boiler service is booked for March' });
    const y = await mb.remember({ text: 'renew the passport before the trip' });
    await mb.update(x, { importance: 0.9 });
    await ma.forget(y);
    await ma.remember({ text: 'the boiler service is booked for March' }); // duplicate: no change
    const expected = [
      { kind: 'remember', ids: [x] },
      { kind: 'remember', ids: [y] },
      { kind: 'update', ids: [x] },
      { kind: 'forget', ids: [y] },
    ];
    await until(() => heardA.length >= 4 && heardB.length >= 4);
    for (const heard of [heardA, heardB]) {
      expect(heard.map(({ kind, ids }) => ({ kind, ids }))).toEqual(expected);
      // one generation per change (the model's readiness at open was the first)
      const first = heard[0]!.generation;
      expect(heard.map((c) => c.generation)).toEqual([first, first + 1, first + 2, first + 3]);
    }
    stopB();
    // b's other listener: a tab tells every listener of a change in one synchronous pass, so once
    // this one has heard it, the removed one would have heard it too
    const stillB: MemoryChange[] = [];
    mb.subscribe((c) => stillB.push(c));
    const z = await ma.remember({ text: 'after b stopped listening' });
    await until(() => heardA.length === 5 && stillB.length === 1);
    expect(stillB[0]).toMatchObject({ kind: 'remember', ids: [z] });
    expect(heardB).toHaveLength(4);
  });

  it('a listener that throws does not stop the others or the write', async () => {
    const registry = new LockRegistry();
    const memory = await open(newTab(registry), { name: 'throwing' });
    const heard: string[] = [];
    const error = console.error;
    console.error = () => undefined;
    try {
      memory.subscribe(() => {
        throw new Error('listener bug');
      });
      memory.subscribe((c) => heard.push(c.kind));
      await memory.remember({ text: 'kept' });
      await until(() => heard.length === 1);
      expect((await memory.stats()).memories).toBe(1);
    } finally {
      console.error = error;
    }
  });
});

describe('change messages between tabs', () => {
  it('a follower hears changes only from its owner, and only well-formed ones', async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const owner = await open(a, { name: 'forged' });
    const follower = await open(b, { name: 'forged' });
    const heard: MemoryChange[] = [];
    follower.subscribe((c) => heard.push(c));
    // the owner's tab id, as every tab reads it from the owner's own messages
    const rogue = new BroadcastChannel('anamnesis:forged');
    let ownerId: string | undefined;
    rogue.onmessage = (e: MessageEvent<{ t?: string; from?: string }>) => {
      if (e.data.t === 'change') ownerId = e.data.from;
    };
    const id = await owner.remember({ text: 'a real change' });
    await until(() => heard.length === 1 && ownerId !== undefined);
    const v = PROTOCOL_VERSION;
    const change = { kind: 'forget', ids: ['x'], generation: 7 };
    rogue.postMessage({ v, t: 'change', from: 'rogue', change }); // well-formed, not the owner
    for (const bad of [
      { ...change, kind: 'drop-table' },
      { ...change, ids: [1] },
      { ...change, generation: -1 },
      { ...change, generation: 1.5 },
      null,
    ])
      rogue.postMessage({ v, t: 'change', from: ownerId, change: bad }); // the owner's id, malformed
    // A well-formed change under the owner's id, posted last: one channel's messages arrive in the
    // order they were posted, so once the follower has heard this one it has read every one above.
    const last = { kind: 'link', ids: ['y', 'z'], generation: 8 };
    rogue.postMessage({ v, t: 'change', from: ownerId, change: last });
    await until(() => heard.at(-1)?.kind === 'link');
    rogue.close();
    expect(heard.map(({ kind, ids }) => ({ kind, ids }))).toEqual([
      { kind: 'remember', ids: [id] },
      { kind: 'link', ids: ['y', 'z'] },
    ]);
  });
});

describe('live recall through the client', () => {
  it("a follower's result list follows the owner tab's writes, and every write acknowledged shows", async () => {
    const registry = new LockRegistry();
    const [a, b] = [newTab(registry), newTab(registry)];
    const owner = await open(a, { name: 'live' });
    const follower = await open(b, { name: 'live' });
    const answers: { ids: string[]; update: LiveUpdate }[] = [];
    const live = follower.live('passport renewal', { topK: 10 }, (results, update) =>
      answers.push({ ids: results.map((r) => r.id), update }),
    );
    await until(() => answers.length === 1);
    expect(answers[0]).toMatchObject({ ids: [], update: { cause: 'start' } });
    // written at once, in a row, without waiting: the list must end with all three
    const ids = await Promise.all([
      owner.remember({ text: 'passport renewal form is in the drawer' }),
      owner.remember({ text: 'book the passport renewal appointment' }),
      owner.remember({ text: 'passport renewal photos need a white background' }),
    ]);
    await until(() => ids.every((id) => answers.at(-1)!.ids.includes(id)));
    // coalesced: at most one recall per change, never a flood
    expect(answers.length).toBeLessThanOrEqual(4);
    expect(answers.at(-1)!.update).toMatchObject({ cause: 'change', query: 'passport renewal' });
    // a deletion shows too
    await owner.forget(ids[1]);
    await until(() => !answers.at(-1)!.ids.includes(ids[1]));
    live.close();
    const count = answers.length;
    // A live recall opened after it, of the same query: a change reaches the follower's listeners
    // in the order they subscribed, each asks for its recall at once, and the follower's calls are
    // answered in the order made. So once this one has the next write in its answer, the closed
    // one would have had its own answer delivered before.
    const later: string[][] = [];
    const next = follower.live('passport renewal', { topK: 10 }, (results) =>
      later.push(results.map((r) => r.id)),
    );
    await until(() => later.length === 1);
    const late = await owner.remember({ text: 'passport renewal: after close, not delivered' });
    await until(() => later.at(-1)!.includes(late));
    next.close();
    expect(answers).toHaveLength(count);
  });

  it('after an owner hand-over the live recall runs again and keeps following', async () => {
    const registry = new LockRegistry();
    const [a, b, c] = [newTab(registry), newTab(registry), newTab(registry)];
    const ma = await open(a, { name: 'handover', timeoutMs: 300 });
    const mb = await open(b, { name: 'handover' });
    const mc = await open(c, { name: 'handover' });
    const causes: string[] = [];
    const kinds: string[] = [];
    let last: string[] = [];
    mc.subscribe((change) => kinds.push(change.kind));
    mc.live('garden', undefined, (results, update) => {
      causes.push(update.cause === 'change' ? `change:${update.change!.kind}` : update.cause);
      last = results.map((r) => r.text);
    });
    await until(() => causes.length === 1);
    terminateWorker(ma);
    a.kill();
    await until(() => mb.role === 'owner' || mc.role === 'owner');
    const writer = mb.role === 'owner' ? mb : mc;
    await writer.remember({ text: 'water the garden tomatoes' });
    await until(() => last.includes('water the garden tomatoes'));
    // c heard the new owner (as a follower: 'owner'; as the new owner itself: its own change)
    expect(kinds).toContain('remember');
    if (mc.role === 'follower') expect(kinds).toContain('owner');
  });
});

describe('liveRecall: ordering rules', () => {
  /** A source whose recalls wait until the test answers them, in any order. */
  function controlled() {
    const listeners = new Set<(c: MemoryChange) => void>();
    const pending: { query: string; answer: (r: RecallResult[]) => void }[] = [];
    const source: LiveSource = {
      recall: (query) =>
        new Promise((resolve) => pending.push({ query, answer: (r) => resolve(r) })),
      subscribe: (listener) => {
        listeners.add(listener);
        return () => void listeners.delete(listener);
      },
    };
    const change = (kind: MemoryChange['kind'] = 'remember') =>
      listeners.forEach((l) => l({ kind, ids: [], generation: 1 }));
    const result = (text: string) => [{ text }] as unknown as RecallResult[];
    return { source, pending, change, result, listeners };
  }
  const tick = () => new Promise((r) => setTimeout(r, 0));

  it('one recall in flight; changes meanwhile are coalesced into one more run', async () => {
    const s = controlled();
    const got: string[] = [];
    liveRecall(s.source, 'q', {}, (r) => got.push(r[0]!.text));
    expect(s.pending).toHaveLength(1);
    s.change();
    s.change();
    s.change();
    expect(s.pending).toHaveLength(1); // still one in flight
    s.pending[0]!.answer(s.result('first'));
    await tick();
    expect(s.pending).toHaveLength(2); // one more run for the three changes
    s.pending[1]!.answer(s.result('second'));
    await tick();
    expect(s.pending).toHaveLength(2);
    // the first answer may predate the changes heard while it ran: the next run's replaces it
    expect(got).toEqual(['second']);
  });

  it('under a stream of changes every other answer is shown, none starved', async () => {
    const s = controlled();
    const got: string[] = [];
    liveRecall(s.source, 'q', {}, (r) => got.push(r[0]!.text));
    for (let i = 0; i < 6; i++) {
      s.change(); // a change during every run
      s.pending[i]!.answer(s.result(`answer ${i}`));
      await tick();
    }
    expect(got).toEqual(['answer 1', 'answer 3', 'answer 5']);
  });

  it('set(): the answer for the replaced query is dropped; the new query is answered', async () => {
    const s = controlled();
    const got: [string, string][] = [];
    const live = liveRecall(s.source, 'ca', {}, (r, u) => got.push([u.query, r[0]!.text]));
    live.set('cat');
    live.set('cats');
    s.pending[0]!.answer(s.result('for ca'));
    await tick();
    expect(s.pending.map((p) => p.query)).toEqual(['ca', 'cats']);
    s.pending[1]!.answer(s.result('for cats'));
    await tick();
    expect(got).toEqual([['cats', 'for cats']]);
  });

  it('close(): nothing is delivered or run after it; the listener is removed', async () => {
    const s = controlled();
    const got: string[] = [];
    const live = liveRecall(s.source, 'q', {}, (r) => got.push(r[0]!.text));
    live.close();
    s.pending[0]!.answer(s.result('late'));
    s.change();
    await tick();
    expect(got).toEqual([]);
    expect(s.pending).toHaveLength(1);
    expect(s.listeners.size).toBe(0);
  });

  it('a failed recall goes to onError and the live recall goes on', async () => {
    const listeners = new Set<(c: MemoryChange) => void>();
    let calls = 0;
    const errors: unknown[] = [];
    const got: number[] = [];
    liveRecall(
      {
        recall: async () => {
          if (++calls === 1) throw new Error('boom');
          return [] as RecallResult[];
        },
        subscribe: (l) => (listeners.add(l), () => void listeners.delete(l)),
      },
      'q',
      {},
      () => got.push(calls),
      (e) => errors.push(e),
    );
    await tick();
    listeners.forEach((l) => l({ kind: 'remember', ids: [], generation: 1 }));
    await tick();
    expect(errors).toHaveLength(1);
    expect(got).toEqual([2]);
  });
});
