/**
 * Recall through the client after each kind of write (issue 42): the worker's engine caches recall
 * results (on by default) and keeps memos per store generation, so the same recall asked again
 * after a write, from the tab that wrote or from another, must answer from the store as it is
 * now: the new memory shows, the forgotten one is gone, the new text is what is found. The
 * engine's own tests (`packages/engine/test/cache-invalidation.test.ts`) cover every cache; these
 * run the same behaviour through Comlink and a follower tab.
 */
import { describe, expect, it } from 'vitest';

import type { MemoryClient, RecallResult } from '../src/index.ts';
import { LockRegistry, newTab, open } from './opened.ts';

const NOTES = [
  { id: 'cat', text: 'I adopted a kitten named Luna and she sleeps on the sofa', tags: ['pets'] },
  { id: 'tax', text: 'the quarterly tax filing deadline is in april, send receipts' },
  { id: 'trip', text: 'we hiked along the mountain trail and camped by a lake' },
];

const ids = (rs: readonly RecallResult[]) => rs.map((r) => r.id);
/** The memories the lexical leg found (`explain: true`): those holding a word of the query. */
const lexical = (rs: readonly RecallResult[]) =>
  rs.filter((r) => r.explain!.legs.some((l) => l.leg === 'fts')).map((r) => r.id);

/**
 * remember, update (text), forget and rememberMany by `writer`, each followed by the same
 * recalls by `reader` (same query, same options: the engine's cache would answer them).
 */
async function recallsFollowWrites(writer: MemoryClient, reader: MemoryClient): Promise<void> {
  await writer.rememberMany(NOTES);
  const q = 'plumber appointment';
  expect(ids(await reader.recall(q))).not.toContain('plumber');
  await writer.remember({ id: 'plumber', text: 'call the plumber to book an appointment' });
  expect(ids(await reader.recall(q))[0]).toBe('plumber');

  const opts = { explain: true };
  expect(lexical(await reader.recall('kitten Luna', opts))).toEqual(['cat']);
  expect(lexical(await reader.recall('parrot Kiwi', opts))).toEqual([]);
  const text = 'I adopted a parrot named Kiwi and he sings at dawn';
  await writer.update('cat', { text });
  expect(lexical(await reader.recall('kitten Luna', opts))).toEqual([]);
  const found = await reader.recall('parrot Kiwi', opts);
  expect(lexical(found)).toEqual(['cat']);
  expect(found[0]).toMatchObject({ id: 'cat', text });

  await writer.forget('plumber');
  expect(ids(await reader.recall(q))).not.toContain('plumber');

  const q2 = 'violin lessons';
  expect(ids(await reader.recall(q2))).not.toContain('violin');
  await writer.rememberMany([{ id: 'violin', text: 'violin lessons start on Thursday' }]);
  expect(ids(await reader.recall(q2))[0]).toBe('violin');
}

describe('recall through the client sees every write before it (the result cache on)', () => {
  it('in the tab that writes (the owner)', async () => {
    const memory = await open(newTab(new LockRegistry()), { name: 'own-writes' });
    await recallsFollowWrites(memory, memory);
  });

  it("in a follower tab, of the owner's writes", async () => {
    const registry = new LockRegistry();
    const owner = await open(newTab(registry), { name: 'owner-writes' });
    const follower = await open(newTab(registry), { name: 'owner-writes' });
    expect(follower.role).toBe('follower');
    await recallsFollowWrites(owner, follower);
  });

  it("in the owner tab, of a follower's writes", async () => {
    const registry = new LockRegistry();
    const owner = await open(newTab(registry), { name: 'follower-writes' });
    const follower = await open(newTab(registry), { name: 'follower-writes' });
    expect(follower.role).toBe('follower');
    await recallsFollowWrites(follower, owner);
  });
});
