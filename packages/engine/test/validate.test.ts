/**
 * What a write accepts, guard by guard (`validate.ts`): each input a guard exists for is refused
 * with `INVALID_INPUT`, and the nearest input it lets through is accepted. (The engine tests
 * check that a refused write writes nothing; `scripts/mutation-pass.mjs` checks that each guard
 * here is needed.)
 */
import { describe, expect, it } from 'vitest';

import {
  MAX_LINKS,
  MAX_META_CHARS,
  MAX_META_KEYS,
  MAX_TIME,
  validateId,
  validateRemember,
  validateUpdate,
} from '../src/input/validate.ts';

const NOW = Date.UTC(2026, 0, 1);
const MAX_TEXT = 100;
const remember = (input: Record<string, unknown>) =>
  validateRemember({ text: 'a text', ...input }, NOW, MAX_TEXT);
const update = (patch: Record<string, unknown>) => validateUpdate(patch, MAX_TEXT);
const refused = (fn: () => unknown) =>
  expect(fn).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }) as Error);

describe('validateRemember and validateUpdate refuse what each guard names', () => {
  it('the memory and the patch are objects; a patch names only fields that can change', () => {
    refused(() => validateRemember(null as never, NOW, MAX_TEXT));
    refused(() => validateRemember('a text' as never, NOW, MAX_TEXT));
    refused(() => validateUpdate(null as never, MAX_TEXT));
    refused(() => validateUpdate(7 as never, MAX_TEXT));
    refused(() => update({ colour: 'red' }));
    refused(() => update({ id: 'other' }));
    expect(update({ importance: 0.2, tags: ['t'] })).toEqual({ importance: 0.2, tags: ['t'] });
  });

  it('text: a string, not blank, within the limit, well formed', () => {
    refused(() => remember({ text: 42 }));
    refused(() => remember({ text: '' }));
    refused(() => remember({ text: ' \n\t' }));
    refused(() => remember({ text: 'x'.repeat(MAX_TEXT + 1) }));
    refused(() => remember({ text: 'half a pair \ud800 here' }));
    refused(() => update({ text: 'lone low \udfff' }));
    expect(remember({ text: 'x'.repeat(MAX_TEXT) }).text).toHaveLength(MAX_TEXT);
    expect(remember({ text: 'a pair \ud83d\ude00' }).text).toBe('a pair \ud83d\ude00');
  });

  it('labels (id, kind, session, tags, link targets): non-empty strings of at most 512, no leading BOM, well formed', () => {
    for (const field of ['id', 'kind', 'session']) {
      refused(() => remember({ [field]: '' }));
      refused(() => remember({ [field]: 'x'.repeat(513) }));
      refused(() => remember({ [field]: 5 }));
      refused(() => remember({ [field]: '\ufeffbom' }));
      refused(() => remember({ [field]: 'lone \ud800' }));
      expect(remember({ [field]: 'x'.repeat(512) })[field as 'kind']).toHaveLength(512);
    }
    refused(() => validateId(''));
    refused(() => update({ kind: '' }));
    refused(() => update({ session: '\ufeffs' }));
  });

  it('tags: an array of at most 256 labels', () => {
    refused(() => remember({ tags: 'pets' }));
    refused(() => remember({ tags: { 0: 'pets' } }));
    refused(() => remember({ tags: Array.from({ length: 257 }, (_, i) => `t${i}`) }));
    refused(() => remember({ tags: [''] }));
    refused(() => update({ tags: 'pets' }));
    expect(remember({ tags: Array.from({ length: 256 }, (_, i) => `t${i}`) }).tags).toHaveLength(
      256,
    );
  });

  it('meta: a plain object of at most 256 identifier keys (not reserved) to scalars, within 64 Ki characters', () => {
    refused(() => remember({ meta: null }));
    refused(() => remember({ meta: 'x' }));
    refused(() => remember({ meta: ['x'] }));
    refused(() =>
      remember({
        meta: Object.fromEntries(Array.from({ length: MAX_META_KEYS + 1 }, (_, i) => [`k${i}`, i])),
      }),
    );
    refused(() => remember({ meta: { 'not an identifier': 1 } }));
    refused(() => remember({ meta: JSON.parse('{"__proto__": 1}') as object }));
    refused(() => remember({ meta: { nested: { a: 1 } } }));
    refused(() => remember({ meta: { n: Infinity } }));
    refused(() => remember({ meta: { s: 'lone \ud800' } }));
    refused(() => remember({ meta: { big: 'x'.repeat(MAX_META_CHARS) } }));
    refused(() => update({ meta: [] }));
    const many = Object.fromEntries(Array.from({ length: MAX_META_KEYS }, (_, i) => [`k${i}`, i]));
    expect(Object.keys(remember({ meta: many }).meta)).toHaveLength(MAX_META_KEYS);
    expect(remember({ meta: { a: 's', b: 1, c: true, d: null } }).meta).toEqual({
      a: 's',
      b: 1,
      c: true,
      d: null,
    });
  });

  it('links: an array of at most 1,024 objects with a label target and a weight in (0, 2^53]', () => {
    refused(() => remember({ links: { to: 'a' } }));
    refused(() =>
      remember({ links: Array.from({ length: MAX_LINKS + 1 }, (_, i) => ({ to: `m${i}` })) }),
    );
    refused(() => remember({ links: [null] }));
    refused(() => remember({ links: ['a'] }));
    refused(() => remember({ links: [{ to: '' }] }));
    refused(() => remember({ links: [{ to: 'a', weight: 0 }] }));
    refused(() => remember({ links: [{ to: 'a', weight: -1 }] }));
    refused(() => remember({ links: [{ to: 'a', weight: 2 ** 60 }] }));
    refused(() => remember({ links: [{ to: 'a', weight: NaN }] }));
    expect(remember({ links: [{ to: 'a' }] }).links).toEqual([
      { to: 'a', kind: 'related', weight: 1 },
    ]);
    expect(
      remember({ links: Array.from({ length: MAX_LINKS }, (_, i) => ({ to: `m${i}` })) }).links,
    ).toHaveLength(MAX_LINKS);
  });

  it('importance and memoryScore in [0, 1]; createdAt a time within ±8.64e15 ms', () => {
    for (const field of ['importance', 'memoryScore']) {
      refused(() => remember({ [field]: -0.1 }));
      refused(() => remember({ [field]: 1.1 }));
      refused(() => remember({ [field]: NaN }));
      refused(() => update({ [field]: 2 }));
      refused(() => update({ [field]: -1 }));
      expect(remember({ [field]: 1 })[field as 'importance']).toBe(1);
      expect(update({ [field]: 0 })[field as 'importance']).toBe(0);
    }
    refused(() => remember({ createdAt: NaN }));
    refused(() => remember({ createdAt: MAX_TIME + 1 }));
    refused(() => remember({ createdAt: -MAX_TIME - 1 }));
    expect(remember({ createdAt: MAX_TIME }).createdAt).toBe(MAX_TIME);
    expect(remember({}).createdAt).toBe(NOW);
  });
});
