import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { HELD_OUT_COMMITS, heldOutFreezes, loadCorpora } from '../src/quality-corpora.ts';

const corpora = loadCorpora(fileURLToPath(new URL('../corpora', import.meta.url)));
const git = (...args: string[]) =>
  execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
/** Whether this checkout has its whole history (not a shallow clone or an exported tree). */
const history = (() => {
  try {
    return git('rev-parse', '--is-shallow-repository') === 'false';
  } catch {
    return false;
  }
})();

describe('the held-out splits were frozen before any ranker ran on them', () => {
  it('names a freeze commit for every corpus with held-out questions, and none for another', () => {
    const held = corpora.filter((c) => c.splits['held-out']).map((c) => c.name);
    expect(Object.keys(HELD_OUT_COMMITS).sort()).toEqual([...held].sort());
    expect(heldOutFreezes(['notes', 'pages'])).toBe('6377f8c (notes, pages)');
    expect(() => heldOutFreezes(['no-such-corpus'])).toThrow(/no freeze commit/);
  });

  it('names each freeze commit by its full id', () => {
    for (const commit of Object.values(HELD_OUT_COMMITS)) expect(commit).toMatch(/^[0-9a-f]{40}$/);
  });

  // where the checkout has its history (a shallow clone or an exported tree cannot tell)
  it('each freeze commit is in this history, and the held-out questions are the ones it froze', () => {
    if (!history) return;
    for (const [name, commit] of Object.entries(HELD_OUT_COMMITS)) {
      expect(() => git('merge-base', '--is-ancestor', commit, 'HEAD'), name).not.toThrow();
      const frozen = JSON.parse(
        git('show', `${commit}:apps/bench/corpora/${name}/corpus.json`),
      ) as { questions: { text: string; split: string }[] };
      const then = frozen.questions.filter((q) => q.split === 'held-out').map((q) => q.text);
      const now = corpora
        .find((c) => c.name === name)!
        .splits['held-out']!.questions.map((q) => q.text);
      expect(now, name).toEqual(then);
    }
  });
});
