import { describe, expect, it } from 'vitest';
import { Latest } from '../src/latest.ts';

/** A promise and its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('Latest: runs for the newest request only', () => {
  it('coalesces requests made during a run into one run, and never drops the last', async () => {
    let value = 'q';
    const gates: { resolve: () => void }[] = [];
    const seen: string[] = [];
    const shown: string[] = [];
    const latest = new Latest(async (isStale) => {
      const query = value;
      seen.push(query);
      const gate = deferred();
      gates.push(gate);
      await gate.promise;
      if (!isStale()) shown.push(query);
    });
    const first = latest.request();
    await Promise.resolve();
    for (const v of ['qu', 'qua', 'quar']) {
      value = v;
      void latest.request();
    }
    const last = latest.request();
    expect(seen).toEqual(['q']); // one run at a time
    gates[0]!.resolve();
    await first;
    expect(shown).toEqual([]); // its answer was stale: newer requests came
    await new Promise((r) => setTimeout(r, 0));
    expect(seen).toEqual(['q', 'quar']); // the four requests meanwhile: one run
    gates[1]!.resolve();
    await last;
    expect(shown).toEqual(['quar']);
  });

  it('a failed run does not stop the next one', async () => {
    let calls = 0;
    const latest = new Latest(async () => {
      calls++;
      if (calls === 1) throw new Error('boom');
    });
    await latest.request();
    await latest.request();
    expect(calls).toBe(2);
  });
});
