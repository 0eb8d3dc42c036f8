import { describe, expect, it } from 'vitest';
import { boilerplateRatio, pathBoilerplateFloor, valueDensity } from '../src/value-density.ts';
import { budgetCut } from '../src/budget-cut.ts';
import { expectCode } from './helpers.ts';

describe('value density (seed 002)', () => {
  it('divides relevance by 1 + log1p(max(1, tokens))', () => {
    expect(valueDensity({ score: 1, tokens: 100 })).toBeCloseTo(1 / (1 + Math.log1p(100)), 12);
    expect(valueDensity({ score: 1, tokens: 0 })).toBeCloseTo(1 / (1 + Math.log1p(1)), 12);
  });
  it('penalises boilerplate by up to half and doubles structured code', () => {
    const base = valueDensity({ score: 1, tokens: 10 });
    expect(valueDensity({ score: 1, tokens: 10, boilerplateRatio: 1 })).toBeCloseTo(base / 2, 12);
    expect(valueDensity({ score: 1, tokens: 10, structured: true })).toBeCloseTo(base * 2, 12);
  });
  it('rejects bad input', () => {
    expectCode(() => valueDensity({ score: NaN, tokens: 1 }), 'INVALID_INPUT');
    expectCode(() => valueDensity({ score: 1, tokens: -1 }), 'INVALID_INPUT');
    expectCode(() => valueDensity({ score: 1, tokens: 1, boilerplateRatio: 2 }), 'INVALID_INPUT');
  });
  it('measures boilerplate with path floors', () => {
    expect(pathBoilerplateFloor('docs/readme.md')).toBe(0.85);
    expect(pathBoilerplateFloor('tests/test_x.py')).toBe(0.5);
    expect(pathBoilerplateFloor('src/x.ts')).toBe(0);
    expect(boilerplateRatio('import a\nimport b\ndef f():\n    return 1')).toBeCloseTo(0.5, 12);
    expect(boilerplateRatio('x = 1\nx = 1\ny = 2\nz = 3')).toBeCloseTo(0.3 * 0.25, 12);
    expect(boilerplateRatio('def f():\n    return 1', 'notes.txt')).toBe(0.85);
  });
});

describe('budget cut (seed 002)', () => {
  const items = [
    { id: 'a', tokens: 50 },
    { id: 'b', tokens: 80, structured: true },
    { id: 'c', tokens: 30 },
    { id: 'd', tokens: 40 },
  ];
  it('takes items greedily in order while they fit, skipping ones that do not', () => {
    expect(budgetCut(items, 100).map((s) => s.item.id)).toEqual(['a', 'c']);
    expect(budgetCut(items, 0)).toEqual([]);
  });
  it('compresses an item that does not fit, strictly for structured items', () => {
    const calls: [string, boolean][] = [];
    const out = budgetCut(items, 100, (item, strict) => {
      calls.push([item.id, strict]);
      return { tokens: Math.ceil(item.tokens * 0.4) };
    });
    expect(out.map((s) => [s.item.id, s.tokens])).toEqual([
      ['a', 50],
      ['b', 32],
      ['c', 12],
    ]);
    expect(out[1]!.compressionRatio).toBeCloseTo(0.4, 12);
    expect(calls).toEqual([
      ['b', true],
      ['c', false],
      ['d', false],
    ]);
  });
  it('skips an item whose compressed form still exceeds the budget', () => {
    expect(budgetCut([{ id: 'x', tokens: 100 }], 10, () => ({ tokens: 50 }))).toEqual([]);
  });
  it('rejects bad input', () => {
    expectCode(() => budgetCut(items, NaN), 'INVALID_INPUT');
    expectCode(() => budgetCut(items, -1), 'INVALID_INPUT');
    expectCode(() => budgetCut([{ id: 'x', tokens: NaN }], 10), 'INVALID_INPUT');
  });
});
