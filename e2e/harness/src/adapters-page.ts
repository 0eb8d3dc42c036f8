/**
 * The adapters test page: `@anamnesis/langchain` over `openMemory` (the engine in its worker, on
 * OPFS) as a browser app uses it, with `@langchain/core` bundled by Vite. Driven by Playwright
 * through `window.adapters`; every result is an {@link Outcome}, so typed errors reach the test.
 */
import { isAnamnesisError, openMemory, type MemoryClient } from '@anamnesis/client';
import {
  AnamnesisRetriever,
  AnamnesisVectorStore,
  type VectorStoreFilter,
} from '@anamnesis/langchain';
import { Document, type DocumentInterface } from '@langchain/core/documents';
import { StringOutputParser } from '@langchain/core/output_parsers';
import { ChatPromptTemplate } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableSequence } from '@langchain/core/runnables';
import { FakeChatModel } from '@langchain/core/utils/testing';

import type { Outcome } from './client-page.ts';
import { clearOpfs } from './clear-opfs.ts';

/** A document as it crosses to the test (plain data). */
export interface SeenDocument {
  id: string | undefined;
  pageContent: string;
  metadata: Record<string, unknown>;
}

/** What the tests call on `window.adapters`. */
export interface AdaptersPageApi {
  /** Clears the origin's OPFS (before any store is open). */
  clearOpfs(): Promise<void>;
  /** Opens the store `name` on OPFS with the TF-IDF backend; returns the backend. */
  open(name: string): Promise<Outcome<string>>;
  close(): Promise<void>;
  addDocuments(docs: SeenDocument[], ids?: string[]): Promise<Outcome<string[]>>;
  searchWithScore(
    query: string,
    k: number,
    filter?: VectorStoreFilter,
  ): Promise<Outcome<[SeenDocument, number][]>>;
  /** `AnamnesisRetriever` with `explain: true`. */
  retrieve(query: string, k: number): Promise<Outcome<SeenDocument[]>>;
  /** `store.asRetriever(k)` → prompt → FakeChatModel (a fake that echoes its prompt). */
  chain(question: string, k: number): Promise<Outcome<string>>;
  delete(ids: string[]): Promise<Outcome<void>>;
  addVectors(): Promise<Outcome>;
  count(): Promise<Outcome<number>>;
}

let memory: MemoryClient | undefined;
let store: AnamnesisVectorStore | undefined;

async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    const error = e as { name?: string; message?: string; code?: string };
    return {
      ok: false,
      error: {
        name: String(error?.name ?? 'Error'),
        message: String(error?.message ?? e),
        ...(typeof error?.code === 'string' ? { code: error.code } : {}),
        isAnamnesisError: isAnamnesisError(e),
      },
    };
  }
}

const plain = (doc: DocumentInterface): SeenDocument => ({
  id: doc.id,
  pageContent: doc.pageContent,
  metadata: JSON.parse(JSON.stringify(doc.metadata)),
});

function opened(): { memory: MemoryClient; store: AnamnesisVectorStore } {
  if (!memory || !store) throw new Error('open a store first');
  return { memory, store };
}

const api: AdaptersPageApi = {
  clearOpfs: async () => {
    await clearOpfs();
  },
  open: (name) =>
    outcome(async () => {
      memory = await openMemory({ name, model: 'tfidf', storage: 'opfs' });
      store = new AnamnesisVectorStore({ memory });
      return memory.info.backend;
    }),
  async close() {
    await memory?.close();
    memory = undefined;
    store = undefined;
  },
  addDocuments: (docs, ids) =>
    outcome(() =>
      opened().store.addDocuments(
        docs.map((d) => new Document(d)),
        ids ? { ids } : {},
      ),
    ),
  searchWithScore: (query, k, filter) =>
    outcome(async () =>
      (await opened().store.similaritySearchWithScore(query, k, filter)).map(
        ([doc, score]): [SeenDocument, number] => [plain(doc), score],
      ),
    ),
  retrieve: (query, k) =>
    outcome(async () =>
      (
        await new AnamnesisRetriever({ memory: opened().memory, k, explain: true }).invoke(query)
      ).map(plain),
    ),
  chain: (question, k) =>
    outcome(() => {
      const chain = RunnableSequence.from([
        {
          context: opened()
            .store.asRetriever(k)
            .pipe((docs: DocumentInterface[]) => docs.map((d) => d.pageContent).join('\n')),
          question: new RunnablePassthrough(),
        },
        ChatPromptTemplate.fromMessages([
          ['system', 'Context:\n{context}'],
          ['human', '{question}'],
        ]),
        new FakeChatModel({}),
        new StringOutputParser(),
      ]);
      return chain.invoke(question);
    }),
  delete: (ids) => outcome(() => opened().store.delete({ ids })),
  addVectors: () =>
    outcome(() => opened().store.addVectors([[1, 0]], [new Document({ pageContent: 'v' })])),
  count: () => outcome(async () => (await opened().memory.stats()).memories),
};

(window as unknown as { adapters: AdaptersPageApi }).adapters = api;
document.body.dataset.ready = 'true';
