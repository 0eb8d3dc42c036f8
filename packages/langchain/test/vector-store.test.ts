/**
 * LangChain's documented vector store behaviour (the standard vector store tests of LangChain:
 * ids returned by addDocuments, ids kept, adding by id replaces, deletion by id, missing ids
 * ignored, best first, k, metadata round trip, inputs not mutated, filters), on the real engine.
 */
import type { Engine } from '@anamnesis/engine';
import { Document } from '@langchain/core/documents';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { PromptTemplate } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { FakeChatModel, FakeEmbeddings } from '@langchain/core/utils/testing';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';

import { AnamnesisEmbeddings, AnamnesisVectorStore, EXTRA_KEY } from '../src/index.ts';
import { expectBestFirst, rejectsWith, tfidfEngine } from './helpers.ts';

let engine: Engine;
let store: AnamnesisVectorStore;

beforeEach(async () => {
  engine = await tfidfEngine();
  store = new AnamnesisVectorStore({ memory: engine });
});

afterEach(() => engine.close());

const PETS = [
  new Document({ pageContent: 'I adopted a kitten named Luna', metadata: { source: 'pets.md' } }),
  new Document({
    pageContent: 'Luna the kitten sleeps on the sofa',
    metadata: { source: 'pets.md' },
  }),
  new Document({ pageContent: 'The dentist moved my appointment', metadata: { source: 'cal.md' } }),
  new Document({
    pageContent: 'A kitten needs vaccinations at the vet',
    metadata: { source: 'vet.md' },
  }),
];

describe('addDocuments', () => {
  test('returns one new id per document, in order, and leaves the documents unchanged', async () => {
    const docs = [
      new Document({ pageContent: 'foo', metadata: { id: 1 } }),
      new Document({ pageContent: 'bar', metadata: { id: 2 } }),
    ];
    const ids = await store.addDocuments(docs);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
    expect((await engine.get(ids[0]!))!.text).toBe('foo');
    expect((await engine.get(ids[1]!))!.text).toBe('bar');
    expect(docs).toEqual([
      new Document({ pageContent: 'foo', metadata: { id: 1 } }),
      new Document({ pageContent: 'bar', metadata: { id: 2 } }),
    ]);
    expect(await store.similaritySearch('bar', 2)).toEqual([
      new Document({ pageContent: 'bar', metadata: { id: 2 }, id: ids[1] }),
    ]);
  });

  test('keeps the ids given in options.ids, else each Document.id, else makes one', async () => {
    const ids = await store.addDocuments(
      [
        new Document({ pageContent: 'alpha', id: 'doc-a' }),
        new Document({ pageContent: 'beta', id: 'ignored' }),
        new Document({ pageContent: 'gamma' }),
      ],
      { ids: [undefined, 'doc-b', undefined] },
    );
    expect(ids.slice(0, 2)).toEqual(['doc-a', 'doc-b']);
    expect(ids[2]).toMatch(/^[0-9A-Z]{26}$/);
    expect((await engine.get('doc-b'))!.text).toBe('beta');
    expect(await engine.get('ignored')).toBeNull();
  });

  test('adding by id twice is idempotent; adding an existing id replaces text and metadata', async () => {
    const docs = [
      new Document({ pageContent: 'foo', metadata: { id: 1 } }),
      new Document({ pageContent: 'bar', metadata: { id: 2 } }),
    ];
    expect(await store.addDocuments(docs, { ids: ['1', '2'] })).toEqual(['1', '2']);
    expect(await store.addDocuments(docs, { ids: ['1', '2'] })).toEqual(['1', '2']);
    expect((await engine.stats()).memories).toBe(2);

    await store.addDocuments(
      [new Document({ pageContent: 'new foo', metadata: { id: 1, some_other_field: 'foo' } })],
      { ids: ['1'] },
    );
    expect((await engine.stats()).memories).toBe(2);
    expect(await store.similaritySearch('new foo', 2)).toEqual([
      new Document({
        id: '1',
        pageContent: 'new foo',
        metadata: { id: 1, some_other_field: 'foo' },
      }),
    ]);
  });

  test('identical texts stay separate documents (no merge); recall shows one of them', async () => {
    const ids = await store.addDocuments([
      new Document({ pageContent: 'same text', metadata: { page: 1 } }),
      new Document({ pageContent: 'same text', metadata: { page: 2 } }),
    ]);
    expect(new Set(ids).size).toBe(2);
    expect((await engine.get(ids[0]!))!.meta).toEqual({ page: 1 });
    expect((await engine.get(ids[1]!))!.meta).toEqual({ page: 2 });
    // recall drops duplicates by content: one result, whichever ranks first.
    expect(await store.similaritySearch('same text', 4)).toHaveLength(1);
    expect(await store.similaritySearch('same text', 4, { page: 2 })).toEqual([
      new Document({ pageContent: 'same text', metadata: { page: 2 }, id: ids[1] }),
    ]);
  });

  test('session, tags and kind options become anamnesis fields', async () => {
    const [id] = await store.addDocuments([new Document({ pageContent: 'hello' })], {
      session: 's1',
      tags: ['t'],
    });
    expect(await engine.get(id!)).toMatchObject({ session: 's1', tags: ['t'], kind: 'document' });
  });

  test('bad input is INVALID_INPUT and writes nothing', async () => {
    await rejectsWith(() => store.addDocuments('x' as never), 'INVALID_INPUT');
    await rejectsWith(
      () => store.addDocuments([new Document({ pageContent: 'a' })], { ids: ['1', '2'] }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      () =>
        store.addDocuments(
          [new Document({ pageContent: 'a' }), new Document({ pageContent: 'b' })],
          { ids: ['x', 'x'] },
        ),
      'INVALID_INPUT',
    );
    await rejectsWith(
      () =>
        store.addDocuments([
          new Document({ pageContent: 'fine' }),
          new Document({ pageContent: '   ' }),
        ]),
      'INVALID_INPUT',
    );
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    await rejectsWith(
      () => store.addDocuments([new Document({ pageContent: 'c', metadata: { cyclic } })]),
      'INVALID_INPUT',
    );
    expect((await engine.stats()).memories).toBe(0);
  });
});

describe('similaritySearch / similaritySearchWithScore', () => {
  beforeEach(async () => {
    await store.addDocuments(PETS);
  });

  test('scores are best first, k is respected, the best match is first', async () => {
    const two = await store.similaritySearchWithScore('kitten Luna', 2);
    expect(two).toHaveLength(2);
    const all = await store.similaritySearchWithScore('kitten Luna', 10);
    expect(all.length).toBeGreaterThan(2);
    expectBestFirst(all.map(([, score]) => score));
    expect(all[0]![0].pageContent).toContain('Luna');
    expect(two).toEqual(all.slice(0, 2));
    expect(await store.similaritySearch('kitten Luna', 2)).toEqual(two.map(([doc]) => doc));
    // Default k is 4 (LangChain's).
    expect(await store.similaritySearch('kitten Luna dentist vaccinations')).toHaveLength(4);
  });

  test('scores are recall fused scores (the same numbers recall gives)', async () => {
    const found = await store.similaritySearchWithScore('kitten vet', 3);
    const hits = await engine.recall('kitten vet', { topK: 3 });
    expect(found.map(([doc, score]) => [doc.id, score])).toEqual(hits.map((h) => [h.id, h.score]));
  });

  test('a metadata filter (LangChain style) is applied inside recall', async () => {
    const found = await store.similaritySearch('kitten', 4, { source: 'vet.md' });
    expect(found.map((d) => d.pageContent)).toEqual(['A kitten needs vaccinations at the vet']);
    expect(await store.similaritySearch('kitten', 4, { source: 'none.md' })).toEqual([]);
  });

  test('$memory carries anamnesis filters (ids, time, tags…) alongside metadata', async () => {
    const [doc] = await store.similaritySearch('kitten', 1);
    const found = await store.similaritySearch('kitten', 4, {
      source: 'pets.md',
      $memory: { ids: [doc!.id!] },
    });
    expect(found.map((d) => d.id)).toEqual([doc!.id]);
    expect(await store.similaritySearch('kitten', 4, { $memory: { before: 0 } })).toEqual([]);
  });

  test('an unusable filter is INVALID_INPUT', async () => {
    await rejectsWith(() => store.similaritySearch('kitten', 4, { 'a.b': 1 }), 'INVALID_INPUT');
    await rejectsWith(
      () => store.similaritySearch('kitten', 4, { loc: { a: 1 } as never }),
      'INVALID_INPUT',
    );
    await rejectsWith(
      () => store.similaritySearch('kitten', 4, { $memory: 'x' as never }),
      'INVALID_INPUT',
    );
    await rejectsWith(() => store.similaritySearch('kitten', 0), 'INVALID_INPUT');
  });

  test('maxMarginalRelevanceSearch runs anamnesis MMR (lambda 0 picks diverse texts)', async () => {
    await store.addDocuments([
      new Document({ pageContent: 'I adopted a kitten named Luna!' }),
      new Document({ pageContent: 'I adopted a kitten named Luna.' }),
    ]);
    const plain = await store.similaritySearch('adopted kitten Luna', 3);
    const diverse = await store.maxMarginalRelevanceSearch(
      'adopted kitten Luna',
      { k: 3, lambda: 0 },
      undefined,
    );
    expect(plain.filter((d) => d.pageContent.startsWith('I adopted'))).toHaveLength(3);
    expect(diverse).toHaveLength(3);
    expect(diverse.filter((d) => d.pageContent.startsWith('I adopted')).length).toBeLessThan(3);
  });
});

describe('metadata', () => {
  test('round trip: nested values, arrays, odd keys, unicode and scalars come back as given', async () => {
    const metadata = {
      source: 'notes/ü.md',
      page: 3,
      ratio: 0.25,
      draft: false,
      owner: null,
      loc: { lines: { from: 1, to: 12 } },
      authors: ['Ada', 'Grace'],
      'dc:title': 'A title',
      [EXTRA_KEY]: 'a user key with the reserved name',
      emoji: '🐈‍⬛',
      long_key_______________________________________________________64: 'x',
      long_key_______________________________________________________65_: 'y',
    };
    const [id] = await store.addDocuments([new Document({ pageContent: 'round trip', metadata })]);
    const [doc] = await store.similaritySearch('round trip', 1);
    expect(doc).toEqual(new Document({ pageContent: 'round trip', metadata, id }));
    // Scalar entries under identifier keys are anamnesis meta fields of their own (filterable).
    const stored = (await engine.get(id!))!.meta;
    expect(stored).toMatchObject({ source: 'notes/ü.md', page: 3, draft: false, owner: null });
    expect(Object.keys(stored)).not.toContain('loc');
    expect(await store.similaritySearch('round trip', 1, { page: 3, draft: false })).toHaveLength(
      1,
    );
  });

  test('a memory written by the engine itself reads back with its meta as metadata', async () => {
    const id = await engine.remember({
      text: 'plain memory',
      meta: { source: 'engine' },
      kind: 'document',
    });
    expect(await store.similaritySearch('plain memory', 1)).toEqual([
      new Document({ pageContent: 'plain memory', metadata: { source: 'engine' }, id }),
    ]);
  });
});

describe('delete', () => {
  test('by ids: those documents go, unknown ids are ignored', async () => {
    const docs = [
      new Document({ pageContent: 'foo', metadata: { id: 1 } }),
      new Document({ pageContent: 'bar', metadata: { id: 2 } }),
      new Document({ pageContent: 'baz', metadata: { id: 3 } }),
    ];
    await store.addDocuments(docs, { ids: ['1', '2', '3'] });
    await store.delete({ ids: ['1', '2', 'never-there'] });
    expect(await store.similaritySearch('foo bar baz', 4)).toEqual([
      new Document({ pageContent: 'baz', metadata: { id: 3 }, id: '3' }),
    ]);
    await store.delete({ ids: ['1'] });
    await store.delete({ ids: [] });
  });

  test('by filter; with neither ids nor filter it is INVALID_INPUT', async () => {
    await store.addDocuments(PETS);
    await store.delete({ filter: { source: 'pets.md' } });
    expect((await engine.stats()).memories).toBe(2);
    await rejectsWith(() => store.delete(), 'INVALID_INPUT');
    await rejectsWith(() => store.delete({ filter: {} }), 'INVALID_INPUT');
    expect((await engine.stats()).memories).toBe(2);
  });
});

describe('what anamnesis does not do', () => {
  test('precomputed vectors and raw embeddings are UNSUPPORTED', async () => {
    await rejectsWith(
      () => store.addVectors([[0.1, 0.2]], [new Document({ pageContent: 'v' })]),
      'UNSUPPORTED',
    );
    await rejectsWith(() => store.similaritySearchVectorWithScore([0.1], 1), 'UNSUPPORTED');
    expect(store.embeddings).toBeInstanceOf(AnamnesisEmbeddings);
    await rejectsWith(() => store.embeddings.embedQuery('x'), 'UNSUPPORTED');
    await rejectsWith(() => store.embeddings.embedDocuments(['x']), 'UNSUPPORTED');
  });

  test('a memory that is not an engine or client is INVALID_INPUT', async () => {
    await rejectsWith(
      () => new AnamnesisVectorStore({ memory: { recall() {} } as never }),
      'INVALID_INPUT',
    );
  });
});

describe('fromTexts / fromDocuments / asRetriever', () => {
  test('fromTexts with one metadata per text, or one for all', async () => {
    const store2 = await AnamnesisVectorStore.fromTexts(
      ['Luna is a kitten', 'Rex is a dog'],
      [{ animal: 'cat' }, { animal: 'dog' }],
      null,
      { memory: engine },
    );
    expect((await store2.similaritySearch('kitten', 1))[0]!.metadata).toEqual({ animal: 'cat' });
    const other = await tfidfEngine();
    const store3 = await AnamnesisVectorStore.fromTexts(
      ['apples and pears', 'plums and cherries'],
      { shared: true },
      null,
      {
        memory: other,
      },
    );
    expect((await store3.similaritySearch('apples cherries', 2)).map((d) => d.metadata)).toEqual([
      { shared: true },
      { shared: true },
    ]);
    await other.close();
  });

  test('fromDocuments refuses an Embeddings it would not use', async () => {
    await rejectsWith(
      () => AnamnesisVectorStore.fromDocuments(PETS, new FakeEmbeddings(), { memory: engine }),
      'INVALID_INPUT',
    );
    expect((await engine.stats()).memories).toBe(0);
    const built = await AnamnesisVectorStore.fromDocuments(PETS, new AnamnesisEmbeddings(), {
      memory: engine,
    });
    expect((await engine.stats()).memories).toBe(PETS.length);
    expect(built).toBeInstanceOf(AnamnesisVectorStore);
  });

  test('asRetriever(k, filter) in a chain with FakeChatModel (a fake that echoes its prompt)', async () => {
    await store.addDocuments(PETS);
    const retriever = store.asRetriever(1, { source: 'vet.md' });
    const chain = RunnableSequence.from([
      {
        context: retriever.pipe((docs: Document[]) => docs.map((d) => d.pageContent).join('\n')),
        question: new RunnablePassthrough(),
      },
      PromptTemplate.fromTemplate('Context:\n{context}\nQuestion: {question}'),
      new FakeChatModel({}),
      new StringOutputParser(),
    ]);
    expect(await chain.invoke('what does a kitten need?')).toBe(
      'Context:\nA kitten needs vaccinations at the vet\nQuestion: what does a kitten need?',
    );
  });

  test("asRetriever({ searchType: 'mmr' }) uses maxMarginalRelevanceSearch", async () => {
    await store.addDocuments(PETS);
    const docs = await store
      .asRetriever({ k: 2, searchType: 'mmr', searchKwargs: { lambda: 1 } })
      .invoke('kitten Luna');
    expect(docs.map((d) => d.pageContent)).toEqual(
      (await store.similaritySearch('kitten Luna', 2)).map((d) => d.pageContent),
    );
  });
});

describe('a store acts only on its own kind', () => {
  test('search, upsert and delete never touch the engine’s other memories', async () => {
    const note = await engine.remember({ text: 'kitten vaccinations note', kind: 'note' });
    const ids = await store.addDocuments(PETS);
    // search: the note shares words with the query but is not a document of the store
    const found = await store.similaritySearch('kitten vaccinations', 10);
    expect(found.map((d) => d.id)).not.toContain(note);
    expect(found.length).toBeGreaterThan(0);
    // an empty-looking filter deletes nothing, in any spelling
    for (const filter of [{}, { $memory: { meta: {} } }, { $memory: {} }, { source: undefined }]) {
      await rejectsWith(() => store.delete({ filter }), 'INVALID_INPUT');
    }
    expect((await engine.stats()).memories).toBe(PETS.length + 1);
    // upsert by the note's id is refused, and the note is unchanged
    await rejectsWith(
      () => store.addDocuments([new Document({ pageContent: 'overwritten', id: note })]),
      'INVALID_INPUT',
    );
    expect((await engine.get(note))!.text).toBe('kitten vaccinations note');
    // delete by ids and by a real filter spare the note
    await store.delete({ ids: [note, ids[0]!] });
    expect(await engine.get(note)).not.toBeNull();
    await store.delete({ filter: { $memory: { after: 0 } } });
    expect((await engine.stats()).memories).toBe(1);
    expect(await engine.get(note)).not.toBeNull();
  });

  test('a store with another kind holds its own documents apart', async () => {
    const other = new AnamnesisVectorStore({ memory: engine, kind: 'faq' });
    await store.addDocuments([new Document({ pageContent: 'refund policy for kittens' })]);
    await other.addDocuments([new Document({ pageContent: 'refund policy answer' })]);
    expect((await other.similaritySearch('refund policy', 5)).map((d) => d.pageContent)).toEqual([
      'refund policy answer',
    ]);
    await rejectsWith(
      () => other.similaritySearch('refund', 5, { $memory: { kind: 'document' } }),
      'INVALID_INPUT',
    );
  });
});
