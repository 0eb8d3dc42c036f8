/**
 * Lossless export at scale (issue 8): 10,000 varied memories with sessions, tags, metadata, links
 * and usage events survive export → import into a fresh store → export byte for byte, with and
 * without vectors.
 */
import { describe, expect, it } from 'vitest';
import { createEngine, type RememberInput } from '../src/index.ts';
import { FUZZ_SEED, Gen } from './fuzz-gen.ts';
import { defaultEmbedder } from './helpers.ts';

const N = 10_000;
const BATCH = 2_000;
const TAGS = ['pets', 'finance', 'work', 'travel', 'cooking', 'health', 'music', "x'); --"];
const KINDS = ['note', 'turn', 'page', 'file'];

describe('export → import → export at 10k', () => {
  it(`is byte-identical with and without vectors (${N} memories)`, async () => {
    let clock = Date.UTC(2026, 0, 1);
    const now = () => clock;
    const g = new Gen(FUZZ_SEED);
    const started = performance.now();
    const a = await createEngine({ storage: 'memory', embedder: await defaultEmbedder(), now });
    const id = (i: number) => `r${String(i).padStart(5, '0')}`;
    for (let start = 0; start < N; start += BATCH) {
      const batch: RememberInput[] = [];
      for (let i = start; i < start + BATCH; i++) {
        const odd = g.chance(0.1) ? ` ${g.text(4).replace(/\p{Cs}/gu, '')}` : '';
        batch.push({
          id: id(i),
          text: `memory ${i}: ${g.pick(TAGS)} ${g.pick(KINDS)} ${'lorem ipsum '.repeat(g.int(12))}${odd}`,
          kind: g.pick(KINDS),
          session: g.chance(0.2) ? null : `session-${g.int(50)}`,
          tags: g.chance(0.3) ? [] : [g.pick(TAGS), g.pick(TAGS)],
          meta: g.chance(0.3)
            ? {}
            : { n: i, topic: g.pick(TAGS), flag: g.chance(0.5), none: null, ratio: g.float() },
          importance: g.float(),
          memoryScore: g.chance(0.5) ? 0 : g.float(),
          createdAt: Date.UTC(2024, 0, 1) + g.int(700) * 86_400_000 + i,
          ...(i % 10 === 9
            ? {
                links: [
                  {
                    to: id(i - 1 - g.int(8)),
                    kind: g.pick(['next', 'related']),
                    weight: 0.5 + g.float(),
                  },
                ],
              }
            : {}),
        });
      }
      expect(await a.rememberMany(batch)).toHaveLength(BATCH);
      clock += 60_000;
    }
    for (let k = 0; k < 300; k++) {
      clock += 1000;
      await a.markUsed(id(g.int(N)), g.pick(['selected', 'used', 'discarded'] as const));
    }
    await a.recall('memory lorem pets', { topK: 20 }); // retrieved events and access counts
    await a.recall('finance travel', { topK: 20 });
    const ingested = performance.now();
    const stats = await a.stats();
    expect(stats).toMatchObject({ memories: N, links: N / 10 });
    expect(stats.usageEvents).toBeGreaterThanOrEqual(300 + 20);

    for (const vectors of [false, true]) {
      const first = await a.export({ vectors });
      expect(first.split('\n')).toHaveLength(N + 2); // header, N lines, final newline
      const b = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
      expect(await b.import(first)).toBe(N);
      const second = await b.export({ vectors });
      expect(second === first).toBe(true); // (toBe would print megabytes on failure)
      expect(await b.verify()).toEqual([]);
      const s = await b.stats();
      expect([s.memories, s.links, s.usageEvents]).toEqual([N, stats.links, stats.usageEvents]);
      await b.close();
    }
    console.info(
      `round trip 10k: ingest ${(ingested - started).toFixed(0)} ms, export/import/export ×2 ${(performance.now() - ingested).toFixed(0)} ms`,
    );
    await a.close();
  }, 300_000);
});
