/** Long text as passages (`chunkText`): what the extension stores per page and the CLI per file. */
import { describe, expect, it } from 'vitest';

import { chunkText, cutText, PASSAGE_CHARS } from '../src/index.ts';

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
    // a cut anywhere keeps surrogate pairs whole
    expect(chunkText(`x${'😀'.repeat(150)}`, 200).map((c) => c.length)).toEqual([199, 102]);
  });

  it('drops blank text', () => {
    expect(chunkText(' \n\n \t ')).toEqual([]);
  });

  it('defaults to PASSAGE_CHARS; a bad max is INVALID_INPUT', () => {
    const text = 'word '.repeat(1000);
    for (const c of chunkText(text)) expect(c.length).toBeLessThanOrEqual(PASSAGE_CHARS);
    expect(() => chunkText(text, 0)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    expect(() => chunkText(1 as never)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('cutText never splits a surrogate pair', () => {
    expect(cutText('a😀', 2)).toBe('a');
    expect(cutText('ab', 5)).toBe('ab');
  });
});
