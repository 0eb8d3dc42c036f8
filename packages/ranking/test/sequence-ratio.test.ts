import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  quickRatio,
  realQuickRatio,
  sequenceRatio,
  sequenceRatioExceeds,
} from '../src/sequence-ratio.ts';

describe('sequenceRatio', () => {
  it("equals Python's SequenceMatcher(None, a, b, autojunk=False).ratio()", () => {
    // Values printed by CPython 3.11's difflib.
    const cases: [string, string, number][] = [
      ['abcd', 'bcde', 0.75],
      [
        'private Thread currentThread;',
        'private volatile Thread currentThread;',
        0.8656716417910447,
      ],
      ['self.x = compute(a, b)', 'self.y = compute(a, c)', 0.9090909090909091],
      ['return foo(bar)', 'return foo(baz)', 0.9333333333333333],
      ['qabxcd', 'abycdf', 0.6666666666666666],
      ['aaaa', 'aa', 0.6666666666666666],
      ['hello world', 'world hello', 0.45454545454545453],
      ['x = 1', 'totally different', 0.09090909090909091],
    ];
    for (const [a, b, expected] of cases) expect(sequenceRatio(a, b)).toBe(expected);
  });

  it('is 1 for two empty strings and 0 against an empty string', () => {
    expect(sequenceRatio('', '')).toBe(1);
    expect(sequenceRatio('abc', '')).toBe(0);
    expect(sequenceRatio('', 'abc')).toBe(0);
    expect(sequenceRatio('same', 'same')).toBe(1);
  });

  it('property: within [0, 1], bounded by quick_ratio <= real_quick_ratio, 1 iff equal', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', 'c', ' ', '(', 'é', '€', '😀'),
      maxLength: 30,
    });
    fc.assert(
      fc.property(text, text, (a, b) => {
        const r = sequenceRatio(a, b);
        expect(r).toBeGreaterThanOrEqual(0);
        expect(r).toBeLessThanOrEqual(quickRatio(a, b));
        expect(quickRatio(a, b)).toBeLessThanOrEqual(realQuickRatio(a, b));
        expect(r === 1).toBe(a === b);
        for (const t of [0.2, 0.5, 0.85]) expect(sequenceRatioExceeds(a, b, t)).toBe(r > t);
      }),
    );
  });
});
