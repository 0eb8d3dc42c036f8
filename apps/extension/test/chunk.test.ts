import { describe, expect, it } from 'vitest';

import { captureToMemories, chunkText } from '../src/chunk.ts';

describe('chunkText', () => {
  it('packs paragraphs into chunks of at most max characters, in order', () => {
    const paragraphs = Array.from({ length: 30 }, (_, i) => `Paragraph ${i} ${'word '.repeat(20)}`);
    const chunks = chunkText(paragraphs.join('\n\n'), 300);
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(300);
    expect(chunks.join('\n').replace(/\s+/g, ' ')).toBe(
      paragraphs
        .map((p) => p.trim())
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  });

  it('cuts a long paragraph at sentence ends, then spaces, then anywhere', () => {
    const sentences = 'This is a sentence about cats. '.repeat(40);
    for (const c of chunkText(sentences, 200)) {
      expect(c.length).toBeLessThanOrEqual(200);
      expect(c.endsWith('.')).toBe(true);
    }
    expect(chunkText('x'.repeat(450), 200).map((c) => c.length)).toEqual([200, 200, 50]);
  });

  it('drops blank text', () => {
    expect(chunkText(' \n\n \t ')).toEqual([]);
  });
});

describe('captureToMemories', () => {
  it('makes page memories with the URL as session and the title first', () => {
    const [m] = captureToMemories(
      { source: 'page', url: 'https://a.example/x', title: 'T', text: 'hello world' },
      42,
    );
    expect(m).toEqual({
      text: 'T\nhello world',
      kind: 'page',
      session: 'https://a.example/x',
      tags: ['page'],
      meta: {
        url: 'https://a.example/x',
        title: 'T',
        source: 'page',
        chunk: 0,
        chunks: 1,
        savedAt: 42,
      },
    });
  });
});
