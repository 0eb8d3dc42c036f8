/**
 * One id on two lines of an import (issue 71): before, the first line was kept and the second
 * dropped without a word. Now the import is `INVALID_INPUT`, naming the id and both lines of the
 * file (`details: { id, lines }`), and nothing is imported, whatever `onConflict` says (it decides
 * ids the store holds already, which `'skip'` still skips).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.ts';
import { rejectsWith } from './helpers.ts';

const line = (m: Record<string, unknown>) => JSON.stringify({ type: 'memory', ...m });

describe('import: one id on two lines', () => {
  let engine: Engine;
  beforeEach(async () => {
    engine = await createEngine({ storage: 'memory', embedder: 'tfidf' });
  });
  afterEach(() => engine.close());

  it('is INVALID_INPUT naming the id and both lines; nothing is imported', async () => {
    const header = JSON.stringify({ type: 'anamnesis', version: 1, model: 'x', dims: 1 });
    const jsonl = [
      header,
      line({ id: 'a', text: 'the first a' }),
      '',
      line({ id: 'b', text: 'b' }),
      line({ id: 'a', text: 'the second a' }),
    ].join('\n');
    for (const onConflict of ['error', 'skip'] as const) {
      const e = await rejectsWith(engine.import(jsonl, { onConflict }), 'INVALID_INPUT');
      expect(e.message).toMatch(/lines 2 and 5 both have the id "a"/);
      expect(e.details).toEqual({ id: 'a', lines: [2, 5] });
      expect((await engine.stats()).memories).toBe(0);
    }
  });

  it("an id the store holds already is still onConflict's: 'skip' leaves that line out", async () => {
    await engine.remember({ id: 'a', text: 'stored before' });
    const jsonl = [line({ id: 'a', text: 'imported a' }), line({ id: 'b', text: 'b' })].join('\n');
    await rejectsWith(engine.import(jsonl), 'INVALID_INPUT');
    expect(await engine.import(jsonl, { onConflict: 'skip' })).toBe(1);
    expect((await engine.get('a'))!.text).toBe('stored before');
    expect((await engine.get('b'))!.text).toBe('b');
  });
});
