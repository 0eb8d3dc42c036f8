import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_DENSITY_LINE_LENGTH, compress, countTokens } from '../src/compress.ts';

const invalid = expect.objectContaining({ code: 'INVALID_INPUT' });
/** Stages 1, 2 and 4 only. */
const noPruning = { strict: true } as const;

describe('countTokens', () => {
  it('is ceil(code points / 4)', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('abcd')).toBe(1);
    expect(countTokens('abcde')).toBe(2);
    expect(countTokens('😀😀😀😀')).toBe(1); // 4 code points, 8 UTF-16 units
    expect(countTokens('a'.repeat(4000))).toBe(1000);
  });

  it('rejects non-strings', () => {
    expect(() => countTokens(null as unknown as string)).toThrow(invalid);
  });
});

describe('compress: stage 1 (structural preservation)', () => {
  const structural = [
    'def handler(event):',
    'async def fetch(url):',
    'class Store:',
    '    return value',
    '    raise KeyError(key)',
    '    yield item',
    '    assert ok',
    '    if ready:',
    '    elif other:',
    '    else:',
    '    for x in xs:',
    '    while True:',
    '    try:',
    '    except ValueError:',
    '    finally:',
    '    with lock:',
    '    switch (kind) {',
    '    case 1:',
    '    x = 1  # TODO remove',
    '    y = 2  # FIXME',
    '    z = 3  # NOTE: odd',
  ];

  it('never removes structural lines, even with the most aggressive settings', () => {
    const filler = structural.map((_, i) => `value_${i} = transform(value_${i + 1})`);
    const text = structural.flatMap((line, i) => [line, filler[i]!]).join('\n');
    const out = compress(text, { targetRatio: 0, maxPruneRatio: 1 }).text.split('\n');
    for (const line of structural) expect(out).toContain(line);
  });

  it('preserves lines inside triple-quoted blocks unless preserveDocstrings is false', () => {
    const text = [
      'def f():',
      '    """',
      '    Repeated docstring line here.',
      '    Repeated docstring line here!',
      '    """',
      "    s = '''one-liner block'''",
    ].join('\n');
    expect(compress(text, noPruning).text).toBe(text);
    const loose = compress(text, { ...noPruning, preserveDocstrings: false }).text;
    expect(loose).not.toContain('Repeated docstring line here!'); // near-duplicate, now removable
  });

  it('preserveSignatures: false makes def/class lines removable', () => {
    const text = 'def compute_total(items):\ndef compute_totals(items):';
    expect(compress(text, noPruning).text).toBe(text);
    expect(compress(text, { ...noPruning, preserveSignatures: false }).text).toBe(
      'def compute_total(items):',
    );
  });
});

describe('compress: stage 2 (boilerplate collapse)', () => {
  const sample = [
    'import os',
    'import sys',
    'import re',
    'import json',
    'from typing import List',
    '',
    '',
    'class Foo:',
    '    def __init__(self, a, b, c):',
    '        self.a = a',
    '        self.b = b',
    '        self.c = c',
    '        logger.info("init")',
    '        logger.debug("done")',
    '',
    '    def run(self):',
    '        # TODO: speed up',
    '        x = compute_thing(self.a)',
    '        return x',
    '',
  ].join('\n');

  it('summarises imports, assignments and log calls, and collapses blank runs', () => {
    const result = compress(sample, noPruning);
    expect(result.text).toBe(
      [
        '# [5 imports: os, sys, re, json, typing]',
        '',
        'class Foo:',
        '    def __init__(self, a, b, c):',
        '        # [3 assignments: a, b, c]',
        '        # [2 log statements]',
        '',
        '    def run(self):',
        '        # TODO: speed up',
        '        x = compute_thing(self.a)',
        '        return x',
        '',
      ].join('\n'),
    );
    expect(result.removedLines).toEqual({ boilerplate: 8, importance: 0, density: 0 });
    expect(result.originalTokens).toBe(countTokens(sample));
    expect(result.compressedTokens).toBe(countTokens(result.text));
    expect(result.ratio).toBeCloseTo(result.compressedTokens / result.originalTokens, 15);
  });

  it('keeps runs at or below the thresholds (3 imports, 2 assignments, 1 log call)', () => {
    const text = [
      'import os',
      'import sys',
      'import re',
      'value = 1',
      'self.a = a',
      'self.b = b',
      'value = 2',
      'print(value)',
      'value = 3',
    ].join('\n');
    expect(compress(text, { ...noPruning, densityThreshold: 1 }).text).toBe(text);
  });

  it('names ES modules and this.x assignments, and lists at most 8 names', () => {
    const js = [
      "import { a } from 'react';",
      'import b from "./b.js";',
      "import './side.css';",
      "import * as c from 'lodash';",
      'console.log(a);',
      'console.warn(b);',
      'this.x = 1;',
      'this.y = 2;',
      'this.z = 3;',
    ].join('\n');
    expect(compress(js, noPruning).text).toBe(
      [
        '# [4 imports: react, ./b.js, ./side.css, lodash]',
        '# [2 log statements]',
        '# [3 assignments: x, y, z]',
      ].join('\n'),
    );
    const many = Array.from({ length: 10 }, (_, i) => `import mod${i}`).join('\n');
    expect(compress(many, noPruning).text).toBe(
      '# [10 imports: mod0, mod1, mod2, mod3, mod4, mod5, mod6, mod7, ...]',
    );
  });

  it('does not treat comparisons as assignments', () => {
    const text = 'self.a == 1\nself.b == 2\nself.c == 3';
    expect(compress(text, { ...noPruning, densityThreshold: 1 }).text).toBe(text);
  });

  it('can be switched off per pattern family', () => {
    const text = 'import a\nimport b\nimport c\nimport d';
    expect(compress(text, { ...noPruning, collapseImports: false, densityThreshold: 1 }).text).toBe(
      text,
    );
    const logs = 'log.info(first_message)\nprint(second_thing)';
    expect(compress(logs, { ...noPruning, collapseBoilerplate: false }).text).toBe(logs);
  });

  it('never folds a preserved line into a run', () => {
    const text = 'import os\nimport sys  # TODO drop\nimport re\nimport json\nimport abc';
    expect(compress(text, { ...noPruning, densityThreshold: 1 }).text).toBe(text);
  });
});

describe('compress: stage 3 (TF-IDF importance filter)', () => {
  // 51 characters -> 13 tokens. Scores with `idf`: alpha 5, beta 1, gamma 3, delta 2.
  const text = 'alpha = 1\nbeta = 2\ngamma = 3\ndelta = 4\nreturn alpha';
  const idf = new Map([
    ['alpha', 5],
    ['beta', 1],
    ['gamma', 3],
    ['delta', 2],
  ]);

  it('removes the lowest-scoring lines until the target ratio is reached', () => {
    // target 0.85 * 13 = 11.05 tokens; dropping "beta = 2" leaves 42 chars = 11 tokens.
    const result = compress(text, { idf, targetRatio: 0.85 });
    expect(result.text).toBe('alpha = 1\ngamma = 3\ndelta = 4\nreturn alpha');
    expect(result.removedLines.importance).toBe(1);
  });

  it('never removes more than floor(maxPruneRatio x scored lines)', () => {
    // Default target 0.4 * 13 = 5.2 tokens is out of reach: 4 scored lines, cap floor(2.8) = 2.
    const capped = compress(text, { idf });
    expect(capped.text).toBe('alpha = 1\ngamma = 3\nreturn alpha');
    expect(capped.removedLines.importance).toBe(2);
    // Without the cap it goes on (beta, delta, gamma, alpha) until 3 tokens <= 5.2.
    expect(compress(text, { idf, maxPruneRatio: 1 }).text).toBe('return alpha');
    expect(compress(text, { idf, maxPruneRatio: 0 }).text).toBe(text);
  });

  it('lets contextIdf override idf', () => {
    const contextIdf = new Map([['beta', 10]]); // alpha, gamma, delta now score 0
    expect(compress(text, { idf, contextIdf, targetRatio: 0.85 }).text).toBe(
      'beta = 2\ngamma = 3\ndelta = 4\nreturn alpha',
    );
  });

  it('computes a line-level IDF when no table is given', () => {
    // "alpha" appears on 2 of 5 lines, so its line has the lowest IDF sum and goes first.
    expect(compress(text, { targetRatio: 0.85 }).text).toBe(
      'beta = 2\ngamma = 3\ndelta = 4\nreturn alpha',
    );
  });

  it('is skipped entirely in strict mode and when targetRatio is 1', () => {
    expect(compress(text, { idf, strict: true, maxPruneRatio: 1 }).text).toBe(text);
    expect(compress(text, { idf, targetRatio: 1, maxPruneRatio: 1 }).text).toBe(text);
  });

  it('breaks score ties by removing the earlier line first', () => {
    const tied = 'first_line = 1\nsecond_line = 2\nthird_line = 3';
    const result = compress(tied, { idf: new Map(), targetRatio: 0.7, maxPruneRatio: 1 });
    expect(result.text).toBe('second_line = 2\nthird_line = 3');
  });
});

describe('compress: stage 4 (density filter)', () => {
  it('removes a line more than 85% similar to a recent kept line', () => {
    const text = 'x = compute(a, b)\nx = compute(a, c)\ny = other_call()';
    const result = compress(text, noPruning);
    expect(result.text).toBe('x = compute(a, b)\ny = other_call()');
    expect(result.removedLines.density).toBe(1);
    // ratio("x = compute(a, c)", "x = compute(a, b)") = 32/34 = 0.94
    expect(compress(text, { ...noPruning, densityThreshold: 0.95 }).text).toBe(text);
  });

  it('compares trimmed lines, so indentation does not matter', () => {
    const text = 'x = compute(a, b)\n        x = compute(a, b)';
    expect(compress(text, noPruning).text).toBe('x = compute(a, b)');
  });

  it('keeps preserved duplicates', () => {
    const text = 'if ready:\n    return value\nif ready:\n    return value';
    expect(compress(text, noPruning).text).toBe(text);
  });

  it('only looks back over the last 20 kept non-blank lines', () => {
    const fillers = 'abcdefghijklmnopqrst'.split('').map((c) => c.repeat(8)); // 20 unrelated lines
    const text = ['x = compute(a, b)', ...fillers, 'x = compute(a, c)'].join('\n');
    expect(compress(text, noPruning).text).toBe(text);
    expect(compress(text, { ...noPruning, densityWindow: 21 }).text).toBe(
      ['x = compute(a, b)', ...fillers].join('\n'),
    );
  });

  it('compares lines longer than MAX_DENSITY_LINE_LENGTH by exact equality only', () => {
    const long = 'q'.repeat(MAX_DENSITY_LINE_LENGTH) + 'tail';
    const near = 'q'.repeat(MAX_DENSITY_LINE_LENGTH) + 'tall';
    expect(compress([long, near].join('\n'), noPruning).text).toBe([long, near].join('\n'));
    expect(compress([long, long].join('\n'), noPruning).text).toBe(long);
  });

  it('collapses blank runs even when stage 2 is off', () => {
    const text = 'first\n\n\n\nsecond\n';
    const off = { ...noPruning, collapseBoilerplate: false, collapseImports: false };
    expect(compress(text, off).text).toBe('first\n\nsecond\n');
  });
});

describe('compress: text handling and validation', () => {
  it('returns empty or whitespace-only text unchanged', () => {
    expect(compress('').text).toBe('');
    expect(compress('   \n\n  ')).toMatchObject({ text: '   \n\n  ', ratio: 1 });
    expect(compress('').ratio).toBe(1);
  });

  it('keeps line endings and a single final newline', () => {
    expect(compress('alpha()\r\nbeta()\r\n', noPruning).text).toBe('alpha()\r\nbeta()\r\n');
    expect(compress('alpha()\nbeta()\n', noPruning).text).toBe('alpha()\nbeta()\n');
  });

  it('rejects bad text and options with INVALID_INPUT', () => {
    expect(() => compress(42 as unknown as string)).toThrow(invalid);
    const bad: object[] = [
      { targetRatio: 1.5 },
      { targetRatio: Number.NaN },
      { maxPruneRatio: -0.1 },
      { densityThreshold: 2 },
      { densityWindow: -1 },
      { densityWindow: 1.5 },
      { strict: 'yes' },
      { preserveDocstrings: 1 },
      { idf: { alpha: 1 } },
      { contextIdf: new Map([['alpha', Number.NaN]]) },
    ];
    for (const options of bad) expect(() => compress('x = 1', options)).toThrow(invalid);
    expect(() => compress('x = 1', null as unknown as object)).toThrow(invalid);
  });

  it('property: structural lines survive, in order, whatever the settings', () => {
    const structural = ['def f(x):', '    return x', 'if ok:', 'else:', '    assert y', 'class A:'];
    const plain = [
      'x = 1',
      'y = compute(x)',
      'import os',
      'self.a = 1',
      'print(x)',
      '',
      'logger.info(x)',
      'total = price * quantity',
      'items.append(item)',
    ];
    const line = fc.constantFrom(...structural, ...plain);
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 40 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        (lines, targetRatio, maxPruneRatio, strict) => {
          const text = lines.join('\n');
          const result = compress(text, { targetRatio, maxPruneRatio, strict });
          const kept = result.text.split('\n').filter((l) => structural.includes(l));
          expect(kept).toEqual(lines.filter((l) => structural.includes(l)));
          expect(result.compressedTokens).toBe(countTokens(result.text));
        },
      ),
    );
  });
});
