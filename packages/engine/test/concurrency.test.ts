/**
 * The write contracts under concurrent calls: apps (and the worker, and an owner tab forwarding
 * its followers' calls) call the engine without awaiting one call before the next. Dedup, unique
 * ids and atomic batches must hold; the final store must equal a serial run of the same calls.
 * The seeded mixed-call property runs ANAMNESIS_FUZZ_CASES / 50 rounds (pnpm test:fuzz: more).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AnamnesisError, ERROR_CODES } from '@anamnesis/errors';
import { createEngine, type Engine, type EngineOptions } from '../src/index.ts';
import { caseSeed, FUZZ_CASES, FUZZ_SEED, Gen, replay } from './fuzz-gen.ts';
import { defaultEmbedder, onnxEmbedder } from './helpers.ts';

const T0 = Date.UTC(2026, 10, 1);
const open: Engine[] = [];

async function engine(options: Partial<EngineOptions> = {}): Promise<Engine> {
  const e = await createEngine({
    storage: 'memory',
    embedder: await defaultEmbedder(),
    now: () => T0,
    ...options,
  });
  open.push(e);
  return e;
}

afterEach(async () => {
  await Promise.all(open.splice(0).map((e) => e.close()));
});

/** `ok:value` or `err:CODE` for a settled call; anything but a catalogued error fails the test. */
function settle(r: PromiseSettledResult<unknown>): string {
  if (r.status === 'fulfilled') return `ok:${JSON.stringify(r.value)}`;
  const e = r.reason as unknown;
  if (!(e instanceof AnamnesisError) || !(e.code in ERROR_CODES) || e.code === 'INTERNAL')
    throw new Error(`not a catalogued error: ${e instanceof Error ? e.stack : String(e)}`);
  return `err:${e.code}`;
}

describe.each(['model', 'tfidf'] as const)('concurrent writes (%s backend)', (backend) => {
  const options = (): Partial<EngineOptions> => (backend === 'tfidf' ? { embedder: 'tfidf' } : {});

  it('identical texts remembered at once get one id and one memory', async () => {
    const e = await engine(options());
    const ids = await Promise.all(
      Array.from({ length: 12 }, () => e.remember({ text: 'same text', session: 's' })),
    );
    expect(new Set(ids).size).toBe(1);
    expect((await e.stats()).memories).toBe(1);
    // the same text in another session, and an explicit duplicate, are still new memories
    const [other, dup] = await Promise.all([
      e.remember({ text: 'same text', session: 't' }),
      e.remember({ text: 'same text', session: 's', allowDuplicate: true }),
    ]);
    expect(new Set([ids[0], other, dup]).size).toBe(3);
    expect(await e.verify()).toEqual([]);
  });

  it('the same id given at once: one succeeds, the others are INVALID_INPUT', async () => {
    const e = await engine(options());
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => e.remember({ id: 'x', text: `text number ${i}` })),
    );
    const outcomes = results.map(settle);
    expect(outcomes.filter((o) => o === 'ok:"x"')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'err:INVALID_INPUT')).toHaveLength(5);
    expect((await e.stats()).memories).toBe(1);
    // the stored text is the one whose call succeeded
    const winner = outcomes.indexOf('ok:"x"');
    expect((await e.get('x'))?.text).toBe(`text number ${winner}`);
  });

  it('overlapping batches at once: each text stored once, batches stay atomic', async () => {
    const e = await engine(options());
    const texts = Array.from({ length: 30 }, (_, i) => `shared note ${i} about gardening`);
    const batches = [texts.slice(0, 20), texts.slice(10, 30), texts.slice(5, 25)];
    const bad = e.rememberMany([
      { text: 'fine one' },
      { id: 'clash', text: 'clash a' },
      { id: 'clash', text: 'clash b' },
    ]);
    const results = await Promise.all(
      batches.map((b) => e.rememberMany(b.map((text) => ({ text })))),
    );
    await expect(bad).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    const byText = new Map<string, string>();
    batches.forEach((b, i) =>
      b.forEach((text, j) => {
        const id = results[i]![j]!;
        if (byText.has(text)) expect(id).toBe(byText.get(text));
        byText.set(text, id);
      }),
    );
    expect((await e.stats()).memories).toBe(30);
    expect(await e.get('clash')).toBeNull();
    expect(await e.verify()).toEqual([]);
  });
});

describe('reads during writes', () => {
  it('a recall does not wait behind another caller’s embedding (ONNX Runtime), and never sees half a batch', async () => {
    // the static model in plain JavaScript embeds a batch without yielding: there a recall waits
    const e = await engine({ embedder: await onnxEmbedder() });
    await e.remember({ text: 'the cat sleeps on the sofa', tags: ['old'] });
    const batch = Array.from({ length: 2000 }, (_, i) => ({
      text: `batch memory ${i}: the cat chased a red ball across the garden`,
      tags: ['batch'],
    }));
    const order: string[] = [];
    const write = e.rememberMany(batch).then(() => order.push('write'));
    const seen: number[] = [];
    const reads = (async () => {
      for (let i = 0; i < 5; i++) {
        const hits = await e.recall('cat', { topK: 5, noCache: true });
        expect(hits.length).toBeGreaterThan(0);
        seen.push((await e.list({ filter: { tags: ['batch'] }, limit: 10_000 })).length);
      }
      order.push('reads');
    })();
    await Promise.all([write, reads]);
    expect(order[0]).toBe('reads');
    for (const n of seen) expect([0, 2000]).toContain(n);
    expect((await e.list({ filter: { tags: ['batch'] }, limit: 10_000 })).length).toBe(2000);
  });

  it('a caller reads its own acknowledged write at once', async () => {
    const e = await engine();
    const calls = Array.from({ length: 20 }, async (_, i) => {
      const id = await e.remember({ text: `note ${i}: ${'word '.repeat(i)}` });
      expect((await e.get(id))?.text).toBe(`note ${i}: ${'word '.repeat(i)}`);
      const updated = await e.update(id, { tags: [`t${i}`] });
      expect((await e.get(id))?.tags).toEqual(updated.tags);
    });
    await Promise.all(calls);
  });
});

type Op = { name: string; run: (e: Engine) => Promise<unknown>; replay: boolean };

const WORDS = ['cat', 'dog', 'garden', 'tax', 'lake', 'bread', 'train', 'music', 'rain', 'book'];

/** A random call of the public API, with ids and texts from small pools so that calls collide. */
function randomOp(g: Gen): Op {
  const id = () => `m${g.int(12)}`;
  const text = () => `${g.pick(WORDS)} ${g.pick(WORDS)} ${g.int(6)}`;
  const item = () => ({
    text: text(),
    ...(g.chance(0.7) ? { id: id() } : { id: `u${g.int(1e9)}` }),
    ...(g.chance(0.5) ? { session: g.pick(['a', 'b']) } : {}),
    ...(g.chance(0.3) ? { tags: [g.pick(WORDS)] } : {}),
    ...(g.chance(0.2) ? { links: [{ to: id() }] } : {}),
  });
  const kind = g.int(11);
  switch (kind) {
    case 0:
    case 1: {
      const input = item();
      return { name: 'remember', run: (e) => e.remember(input), replay: true };
    }
    case 2: {
      const inputs = Array.from({ length: 1 + g.int(3) }, item);
      return { name: 'rememberMany', run: (e) => e.rememberMany(inputs), replay: true };
    }
    case 3: {
      const [target, patch] = [id(), g.chance(0.5) ? { text: text() } : { importance: g.float() }];
      return { name: 'update', run: (e) => e.update(target, patch), replay: true };
    }
    case 4: {
      const target = g.chance(0.7) ? id() : { tags: [g.pick(WORDS)] };
      return { name: 'forget', run: (e) => e.forget(target), replay: true };
    }
    case 5: {
      const [a, b] = [id(), id()];
      return { name: 'link', run: (e) => e.link(a, b, { kind: 'related' }), replay: true };
    }
    case 6: {
      const [a, b] = [id(), id()];
      return { name: 'unlink', run: (e) => e.unlink(a, b), replay: true };
    }
    case 7: {
      const target = id();
      return { name: 'markUsed', run: (e) => e.markUsed(target, 'used'), replay: true };
    }
    case 8: {
      const lines = Array.from({ length: 1 + g.int(2) }, () =>
        JSON.stringify({ type: 'memory', ...item(), links: [] }),
      );
      const onConflict = g.pick(['skip', 'error'] as const);
      return {
        name: 'import',
        run: (e) => e.import(lines.join('\n'), { onConflict }),
        replay: true,
      };
    }
    default: {
      const q = text();
      return { name: 'recall', run: (e) => e.recall(q, { topK: 3 }), replay: false };
    }
  }
}

/**
 * An export without what recalls change (access counts, `retrieved` events): recalls are not
 * replayed, and what they see depends on when they ran.
 */
function comparable(jsonl: string): unknown[] {
  return jsonl
    .split('\n')
    .slice(1)
    .filter((l) => l !== '')
    .map((l) => {
      const m = JSON.parse(l) as Record<string, unknown> & { usage?: { event: string }[] };
      delete m.accessCount;
      if (m.usage) m.usage = m.usage.filter((u) => u.event !== 'retrieved');
      return m;
    });
}

describe('mixed concurrent calls', () => {
  const rounds = Math.max(4, Math.round(FUZZ_CASES / 50));
  it(`equal a serial run of the same calls in submission order (${rounds} seeded rounds)`, async () => {
    for (let round = 0; round < rounds; round++) {
      const g = new Gen(caseSeed(FUZZ_SEED, 'concurrent', round));
      const ops = Array.from({ length: 20 + g.int(40) }, () => randomOp(g));
      const concurrent = await engine({
        embedder: round % 5 === 4 ? 'tfidf' : await defaultEmbedder(),
      });
      const settled = (await Promise.allSettled(ops.map((op) => op.run(concurrent)))).map(settle);
      const serial = await engine({
        embedder: round % 5 === 4 ? 'tfidf' : await defaultEmbedder(),
      });
      for (const [i, op] of ops.entries()) {
        if (!op.replay) continue;
        const [r] = await Promise.allSettled([op.run(serial)]);
        const expected = settle(r);
        if (settled[i] !== expected) {
          throw new Error(
            replay(
              'concurrent',
              FUZZ_SEED,
              round,
              `call ${i} (${op.name}): ${settled[i]} concurrently, ${expected} serially`,
            ),
          );
        }
      }
      expect(comparable(await concurrent.export())).toEqual(comparable(await serial.export()));
      expect(await concurrent.verify()).toEqual([]);
      await Promise.all([concurrent.close(), serial.close()]);
      open.length = 0;
    }
  }, 240_000);
});

describe('operation ids (at most once)', () => {
  it('a write sent again under its operation id is not applied twice and gets the same reply', async () => {
    const e = await engine();
    const first = await e.once('op-1', 'remember', [{ text: 'a note', allowDuplicate: true }]);
    const again = await e.once('op-1', 'remember', [{ text: 'a note', allowDuplicate: true }]);
    expect(again).toBe(first);
    expect((await e.stats()).memories).toBe(1);
    // at once, too: the second waits for the first and answers from its record
    const [a, b] = await Promise.all([
      e.once('op-2', 'rememberMany', [[{ text: 'x one' }, { text: 'x two' }]]),
      e.once('op-2', 'rememberMany', [[{ text: 'x one' }, { text: 'x two' }]]),
    ]);
    expect(b).toEqual(a);
    expect((await e.stats()).memories).toBe(3);
    const updated = await e.once('op-3', 'update', [first, { tags: ['t'] }]);
    expect(await e.once('op-3', 'update', [first, { tags: ['t'] }])).toEqual(updated);
    expect(await e.once('op-4', 'forget', [a[0]!])).toBe(1);
    expect(await e.once('op-4', 'forget', [a[0]!])).toBe(1);
    expect((await e.stats()).memories).toBe(2);
    await e.once('op-5', 'markUsed', [first, 'used']);
    await e.once('op-5', 'markUsed', [first, 'used']);
    const usage = JSON.parse((await e.export()).split('\n')[1]!) as { usage?: unknown[] };
    expect(usage.usage).toHaveLength(1);
  });

  it('a failed write is not recorded: sent again, it runs again', async () => {
    const e = await engine();
    await expect(e.once('op-x', 'update', ['missing', { tags: [] }])).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await e.remember({ id: 'missing', text: 'now here' });
    expect((await e.once('op-x', 'update', ['missing', { tags: ['t'] }])).tags).toEqual(['t']);
  });

  it('an operation id is remembered for a day: the next write after that forgets it', async () => {
    let clock = T0;
    const e = await engine({ now: () => clock });
    const first = await e.once('op-old', 'remember', [{ text: 'a note', allowDuplicate: true }]);
    clock += 23 * 3600_000; // within the day: still answered from its record
    expect(await e.once('op-old', 'remember', [{ text: 'a note', allowDuplicate: true }])).toBe(
      first,
    );
    clock += 2 * 3600_000; // past it: the next recorded write drops the old record
    await e.once('op-new', 'remember', [{ text: 'another note' }]);
    const again = await e.once('op-old', 'remember', [{ text: 'a note', allowDuplicate: true }]);
    expect(again).not.toBe(first);
    expect((await e.stats()).memories).toBe(3);
  });

  it('refuses reads and bad operation ids', async () => {
    const e = await engine();
    await expect(e.once('op', 'recall' as 'remember', [{ text: 'x' }])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    await expect(e.once('', 'remember', [{ text: 'x' }])).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
    expect((await e.stats()).memories).toBe(0);
  });
});
