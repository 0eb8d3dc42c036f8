import { describe, expect, it } from 'vitest';
import {
  chunkBody,
  foldByNote,
  noteIdOf,
  noteMemories,
  titleFromFile,
  toNote,
  wikiLinks,
} from '../src/notes.ts';
import { createEngine } from '@anamnesis/engine';
import { searchedWords, snippet } from '../src/snippet.ts';

describe('notes as memories', () => {
  it('chunks long bodies at boundaries and round-trips a note', () => {
    const body = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} about gardening.`).join(
      ' ',
    );
    const chunks = chunkBody(body, 500);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.length <= 500)).toBe(true);
    expect(chunks.join(' ').replace(/\s+/g, ' ')).toBe(body);
    const { head, chunks: extra } = noteMemories({ title: 'Garden', body, tags: ['home'] });
    expect(head.meta).toEqual({ title: 'Garden', chunks: extra.length, exact: true });
    const note = toNote(
      {
        id: 'n1',
        text: head.text,
        kind: 'note',
        tags: ['home'],
        meta: head.meta,
        createdAt: 1,
        updatedAt: 2,
      },
      extra.map((c) => c.text),
    );
    expect(note.title).toBe('Garden');
    expect(note.body).toBe(body);
  });

  it('round-trips any body exactly: unbroken lines, blank lines, surrounding spaces, emoji', () => {
    const note = (body: string) => {
      const { head, chunks } = noteMemories({ title: 'T', body, tags: [] });
      const memory = { id: 'n', text: head.text, kind: 'note', tags: [], meta: head.meta };
      return toNote(
        { ...memory, createdAt: 1, updatedAt: 1 },
        chunks.map((c) => c.text),
      ).body;
    };
    for (const body of [
      'x'.repeat(5000),
      `  leading\n\n\n${'word '.repeat(900)}\n\n  trailing  `,
      '😀'.repeat(2000),
      `${'a'.repeat(1499)}😀${'b'.repeat(3000)}`,
      '',
    ]) {
      expect(chunkBody(body).join('')).toBe(body);
      expect(note(body)).toBe(body);
    }
    // A note saved before exact chunks (trimmed pieces joined by a blank line) still reads back.
    const legacy = toNote(
      {
        id: 'n',
        text: 'T\n\nfirst',
        kind: 'note',
        tags: [],
        meta: { title: 'T', chunks: 1 },
        createdAt: 1,
        updatedAt: 1,
      },
      ['T\n\nsecond'],
    );
    expect(legacy.body).toBe('first\n\nsecond');
  });

  it('finds [[links]] and folds chunk results back to their note', () => {
    expect(wikiLinks('see [[Tax]] and [[ Garden plan ]] and [[Tax]] but not [[]]')).toEqual([
      'Tax',
      'Garden plan',
    ]);
    const folded = foldByNote([
      { id: 'n1~2', kind: 'chunk', meta: { note: 'n1' }, score: 0.9 },
      { id: 'n1', kind: 'note', meta: {}, score: 0.5 },
      { id: 'n2', kind: 'note', meta: {}, score: 0.7 },
    ]);
    expect(folded.map((r) => [r.noteId, r.score])).toEqual([
      ['n1', 0.9],
      ['n2', 0.7],
    ]);
    expect(noteIdOf({ id: 'x', kind: 'note', meta: {} })).toBe('x');
    expect(titleFromFile('folder/My Note.md')).toBe('My Note');
  });

  it('highlights query words in a snippet as segments (no HTML)', () => {
    const s = snippet('Intro text. The <b>kitten</b> Luna sleeps on the sofa all day.', [
      'kitten',
      'sofa',
    ]);
    expect(s.filter((x) => x.match).map((x) => x.text)).toEqual(['kitten', 'sofa']);
    expect(s.map((x) => x.text).join('')).toContain('<b>kitten</b>');
  });

  it("highlights the words recall searched, never the query's stop words", async () => {
    const engine = await createEngine({ storage: 'memory' });
    await engine.remember({
      text: 'Vet visit\n\nThe veterinarian advised a lighter diet for the dog.',
    });
    const [hit] = await engine.recall('what did the veterinarian advise', { explain: true });
    const words = searchedWords('what did the veterinarian advise', hit!.explain!.query);
    expect(words).toEqual(['veterinarian', 'advise']);
    const marked = snippet(hit!.text, words)
      .filter((x) => x.match)
      .map((x) => x.text);
    expect(marked).toEqual(['veterinarian', 'advised']); // not "The", "the" or "for"
  });

  it('highlights a corrected typo and the words a prefix being typed begins', async () => {
    const engine = await createEngine({ storage: 'memory' });
    await engine.rememberMany([
      { text: 'Restaurant booking\n\nA table for four on Friday.' },
      { text: 'Pancake batter\n\nFlour, eggs and milk.' },
    ]);
    const [typo] = await engine.recall('restaurnt', { explain: true });
    expect(searchedWords('restaurnt', typo!.explain!.query)).toContain('restaurant');
    const [typed] = await engine.recall('panc', { explain: true, typing: true });
    const words = searchedWords('panc', typed!.explain!.query);
    expect(
      snippet(typed!.text, words)
        .filter((x) => x.match)
        .map((x) => x.text),
    ).toEqual(['Pancake']);
  });
});
