/**
 * Saving a page again (issue 41): the new passages replace the old in one write, so a write that
 * fails (a full quota, simulated) leaves the page's old passages, never none.
 */
import { AnamnesisError, createEngine, type Engine } from '@anamnesis/engine';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { planCapture } from '../src/chunk.ts';
import { saveCapture, type SaveTarget } from '../src/save.ts';

const URL = 'https://a.example/trip';
const capture = (text: string) =>
  planCapture({ source: 'page', url: URL, title: 'Lisbon trip', text }, Date.UTC(2026, 0, 1));

let engine: Engine;
beforeEach(async () => {
  engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
});
afterEach(() => engine.close());

const stored = async () =>
  (await engine.list({ filter: { session: URL }, limit: 100 })).map((m) => m.text).sort();

/**
 * The store as the offscreen document reaches it, except that its writes fail with
 * QUOTA_EXCEEDED from the `failAt`-th on (the first is 1), as a full origin quota makes them.
 */
function quotaAfter(failAt: number): SaveTarget {
  let writes = 0;
  const write =
    <A extends unknown[], R>(run: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> =>
      ++writes >= failAt
        ? Promise.reject(new AnamnesisError('QUOTA_EXCEEDED', 'the origin quota is full'))
        : run(...args);
  return {
    forget: write((target: Parameters<Engine['forget']>[0]) => engine.forget(target)),
    rememberMany: write((inputs: Parameters<Engine['rememberMany']>[0], options?) =>
      engine.rememberMany(inputs, options),
    ),
  } as SaveTarget;
}

describe('saving a page again', () => {
  test('replaces its passages (a selection of the page stays)', async () => {
    await saveCapture(engine, capture('Tram 28 at nine.\n\nPastries in Belém.'));
    await saveCapture(
      engine,
      planCapture({ source: 'selection', url: URL, title: 'Lisbon trip', text: 'A quote' }, 1),
    );
    await saveCapture(engine, capture('Tram 28 at ten.'));
    expect(await stored()).toEqual(['Lisbon trip\nA quote', 'Lisbon trip\nTram 28 at ten.']);
  });

  test('a write that fails (quota, simulated) leaves the old passages or the new, never none', async () => {
    await saveCapture(engine, capture('Tram 28 at nine.\n\nPastries in Belém.'));
    const before = await stored();
    expect(before).toHaveLength(1);
    // The second write of a save fails (a save in two writes, forget then remember, is left with
    // nothing: its forget went through); a save in one write is whole.
    const second = await saveCapture(quotaAfter(2), capture('Tram 28 at ten.')).then(
      () => 'saved',
      (e: unknown) => (e as AnamnesisError).code,
    );
    expect(second).toBe('saved');
    expect(await stored()).toEqual(['Lisbon trip\nTram 28 at ten.']);
    // The save's first write fails: nothing changes.
    await expect(saveCapture(quotaAfter(1), capture('Ferry at noon.'))).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
    });
    expect(await stored()).toEqual(['Lisbon trip\nTram 28 at ten.']);
  });
});
