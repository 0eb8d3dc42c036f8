import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEngine, type Engine } from '../src/engine.ts';
import type { StoreChange } from '../src/types.ts';
import { defaultEmbedder } from './helpers.ts';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});

async function open(
  embedder: Parameters<typeof createEngine>[0]['embedder'] = 'tfidf',
): Promise<{ engine: Engine; changes: StoreChange[] }> {
  const changes: StoreChange[] = [];
  engine = await createEngine({ storage: 'memory', embedder, onChange: (c) => changes.push(c) });
  return { engine, changes };
}

describe('onChange: every committed change, what it changed, in commit order', () => {
  it('subscribe adds listeners beside onChange; each hears every change until removed', async () => {
    const { engine: e, changes } = await open();
    const heard: string[][] = [];
    const stop = e.subscribe((c) => heard.push(c.ids));
    const other: string[] = [];
    e.subscribe((c) => other.push(c.kind));
    await e.remember({ text: 'first', id: 'a' });
    stop();
    await e.remember({ text: 'second', id: 'b' });
    expect(heard).toEqual([['a']]);
    expect(other).toEqual(['remember', 'remember']);
    expect(changes).toHaveLength(2);
  });

  it('export({ ids }) exports only those memories, with their links; unknown ids are left out', async () => {
    const { engine: e } = await open();
    await e.rememberMany([
      { text: 'the heating engineer comes on Tuesday', id: 'a' },
      { text: 'buy oat milk', id: 'b' },
      { text: 'call Ann', id: 'c' },
    ]);
    await e.link('a', 'b');
    await e.markUsed('a', 'used');
    const lines = (await e.export({ ids: ['a', 'nope'] })).trim().split('\n');
    expect(lines).toHaveLength(2);
    const a = JSON.parse(lines[1]!) as { id: string; links: { to: string }[]; usage: unknown[] };
    expect(a.id).toBe('a');
    expect(a.links.map((l) => l.to)).toEqual(['b']);
    expect(a.usage).toHaveLength(1);
    expect((await e.export({ ids: [] })).trim().split('\n')).toHaveLength(1);
    await expect(e.export({ ids: 'a' as never })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('names the kind and the ids of each write, with the generation after it', async () => {
    const { engine: e, changes } = await open();
    const a = await e.remember({ text: 'the heating engineer comes on Tuesday', id: 'a' });
    const [b, c] = await e.rememberMany([{ text: 'buy oat milk', id: 'b' }, { text: 'call Ann' }]);
    await e.update(a, { importance: 0.9 });
    await e.link(a, b!);
    await e.unlink(a, b!);
    await e.markUsed(c!, 'selected');
    await e.forget({ ids: [b!, c!] });
    expect(changes.map(({ kind, ids }) => [kind, ids])).toEqual([
      ['remember', ['a']],
      ['remember', ['b', c]],
      ['update', ['a']],
      ['link', ['a', 'b']],
      ['unlink', ['a', 'b']],
      ['usage', [c]],
      ['forget', ['b', c]],
    ]);
    expect(changes.map((x) => x.generation)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect((await e.stats()).generation).toBe(7);
  });

  it('says nothing for a write that changes nothing', async () => {
    const { engine: e, changes } = await open();
    await e.remember({ text: 'same text' });
    await e.remember({ text: 'same text' }); // a duplicate: the existing id
    await e.rememberMany([]);
    await e.remember({ text: 'other' });
    expect(await e.unlink((await e.list())[0]!.id, (await e.list())[1]!.id)).toBe(0);
    expect(await e.forget({ kind: 'no-such-kind' })).toBe(0);
    expect(changes.map((c) => c.kind)).toEqual(['remember', 'remember']);
  });

  it('a write re-sent under the same operation id is heard once', async () => {
    const { engine: e, changes } = await open();
    const first = await e.once('op-1', 'remember', [{ text: 'once only' }]);
    const again = await e.once('op-1', 'remember', [{ text: 'once only' }]);
    expect(again).toBe(first);
    expect(changes).toEqual([{ kind: 'remember', ids: [first], generation: 1 }]);
  });

  it('an import names the memories it added', async () => {
    const { engine: e, changes } = await open();
    await e.rememberMany([
      { text: 'one', id: 'x1' },
      { text: 'two', id: 'x2' },
    ]);
    const jsonl = await e.export();
    await e.forget({ all: true });
    changes.length = 0;
    expect(await e.import(jsonl)).toBe(2);
    expect(changes).toEqual([{ kind: 'import', ids: ['x1', 'x2'], generation: 3 }]);
  });

  it('concurrent writes are heard once each, in the order they committed, generations 1..n', async () => {
    const { engine: e, changes } = await open();
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, i) => e.remember({ text: `note number ${i}` })),
    );
    expect(changes.map((c) => c.ids[0])).toEqual(ids);
    expect(changes.map((c) => c.generation)).toEqual(ids.map((_, i) => i + 1));
  });

  it('a listener that throws fails no write', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      engine = await createEngine({
        storage: 'memory',
        embedder: 'tfidf',
        onChange: () => {
          throw new Error('listener bug');
        },
      });
      const id = await engine.remember({ text: 'kept all the same' });
      expect((await engine.get(id))?.text).toBe('kept all the same');
      expect(error).toHaveBeenCalledTimes(1);
    } finally {
      error.mockRestore();
    }
  });

  it("tells when a promised model becomes ready ('model'), after the writes made while it loaded", async () => {
    let resolve!: (e: Awaited<ReturnType<typeof defaultEmbedder>>) => void;
    const promised = new Promise<Awaited<ReturnType<typeof defaultEmbedder>>>((r) => (resolve = r));
    const { engine: e, changes } = await open(promised);
    const id = await e.remember({ text: 'written while the model loads' });
    resolve(await defaultEmbedder());
    await e.model;
    expect(changes).toEqual([
      { kind: 'remember', ids: [id], generation: 1 },
      { kind: 'model', ids: [], generation: 2 },
    ]);
  });
});
