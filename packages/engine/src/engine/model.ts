import { MODEL_ID, modelRootPath } from '@anamnesis/model-default';
import { AnamnesisError } from '@anamnesis/errors';
import type {
  Embedder,
  ProgressEvent,
  TransformersEmbedderOptions,
} from '../embedding/embedder.ts';
import { createModelEmbedder } from '../embedding/model-embedder.ts';
import { DenseSimilarity } from '../similarity/dense-similarity.ts';
import type { SimilarityBackend } from '../similarity/similarity.ts';
import { TfidfSimilarity } from '../similarity/tfidf-similarity.ts';
import { transaction } from '../store/sqlite.ts';
import type { RecallResult } from '../types.ts';
import type { EngineContext } from './context.ts';
import type { EngineOptions } from './options.ts';

/** Where the embedding model is (see {@link Engine.model}). */
export type ModelState = 'loading' | 'ready' | 'failed';

/** What the store does when it holds vectors of another model (see `EngineOptions`). */
type OnMismatch = 'error' | 'reembed';

/** Why results are `partial`, by model state. */
const PARTIAL_REASONS: Record<Exclude<ModelState, 'ready'>, string> = {
  loading: 'the embedding model is still loading: lexical legs only',
  failed: 'the embedding model failed to load: lexical legs only',
};

/**
 * The model's lifecycle in one engine: which similarity backend is in use, whether the model is
 * ready, and the change from one model to another (a promised embedder swapped in once it
 * resolves; a store embedded with another model checked, re-embedded or refused).
 */
export class ModelLifecycle {
  /** The similarity backend: a `LoadingSimilarity` until a promised embedder is ready. */
  similarity: SimilarityBackend;
  /** See {@link Engine.modelState}. */
  state: ModelState = 'ready';
  /** See {@link Engine.model}. */
  ready: Promise<void> = Promise.resolve();
  readonly #ctx: EngineContext;
  /** True when the engine created the backend (and so disposes it on close). */
  readonly #owned: boolean;

  constructor(ctx: EngineContext, backend: SimilarityBackend, owned: boolean) {
    this.#ctx = ctx;
    this.similarity = backend;
    this.#owned = owned;
  }

  /**
   * Swaps in the promised embedder's backend once it resolves: alone on the write path (no write
   * overlaps), it checks the model against the store, loads the stored vectors and embeds the
   * memories written while it loaded, then replaces the loading backend and calls `activated`
   * with how long the vectors took to load (the engine drops its cached recalls).
   */
  activateWhenReady(
    promised: Promise<Embedder>,
    onMismatch: OnMismatch,
    onProgress: ((e: ProgressEvent) => void) | undefined,
    activated: (vectorsMs: number) => void,
  ): void {
    const ctx = this.#ctx;
    this.state = 'loading';
    this.ready = promised
      .catch((e: unknown) => {
        throw e instanceof AnamnesisError
          ? e
          : new AnamnesisError('MODEL_LOAD_FAILED', e instanceof Error ? e.message : String(e), {
              cause: e,
            });
      })
      .then((embedder) =>
        ctx.run(() =>
          ctx.writes.exclusive(async () => {
            if (ctx.closed()) throw new AnamnesisError('CLOSED');
            const backend = new DenseSimilarity(embedder);
            const start = performance.now();
            await this.load(backend, onMismatch, onProgress);
            const vectorsMs = performance.now() - start;
            this.similarity = backend;
            this.state = 'ready';
            activated(vectorsMs);
          }),
        ),
      )
      .catch((e: unknown) => {
        if (this.state === 'loading') this.state = 'failed';
        throw e;
      });
    this.ready.catch(() => undefined); // the state says it; `model` rejects for who asks
  }

  /** Checks the model, loads the similarity backend and the Bloom filter; handles a model change. */
  async load(
    backend: SimilarityBackend,
    onMismatch: OnMismatch,
    onProgress?: (e: ProgressEvent) => void,
  ): Promise<void> {
    const ctx = this.#ctx;
    const { db } = ctx;
    const { id: model, dims } = backend;
    const storedModel = db.selectValue("SELECT value FROM meta WHERE key = 'model'") as
      string | undefined;
    const storedDims = Number(db.selectValue("SELECT value FROM meta WHERE key = 'dims'") ?? 0);
    const count = Number(db.selectValue('SELECT count(*) FROM memories'));
    if (storedModel !== undefined && (storedModel !== model || storedDims !== dims) && count > 0) {
      if (onMismatch !== 'reembed') {
        throw new AnamnesisError(
          'MODEL_MISMATCH',
          `the store was embedded with ${storedModel} (${storedDims} dims), not ${model} (${dims} dims); open with onModelMismatch: 'reembed'`,
          { details: { stored: storedModel, storedDims, model, dims } },
        );
      }
    }
    if (this.state !== 'loading') ctx.dedup.load(count);
    await ctx.bulkRead(() => backend.load(db, (capacity) => ctx.io.reader(capacity), onProgress));
    // The meta row names the model every stored vector is of: it changes in the same transaction
    // that deletes any other model's vectors, so a store already recorded for this model has
    // nothing to delete (and the open writes nothing).
    if (storedModel === model && storedDims === dims) return;
    transaction(db, 'recording the model', () => {
      db.exec({
        sql: "INSERT OR REPLACE INTO meta(key, value) VALUES ('model', ?), ('dims', ?)",
        bind: [model, String(dims)],
      });
      db.exec({ sql: 'DELETE FROM embeddings WHERE model <> ?', bind: [model] });
    });
  }

  /** Disposes the backend in use if the engine created it. */
  async dispose(): Promise<void> {
    if (this.#owned) await this.similarity.dispose?.();
  }
}

/** Results found without the model: each marked `partial`, with the reason in its explanation. */
export function partial(results: RecallResult[], state: ModelState): RecallResult[] {
  if (state === 'ready') return results;
  const reason = PARTIAL_REASONS[state];
  return results.map((r) => ({
    ...r,
    partial: true,
    ...(r.explain ? { explain: { ...r.explain, partial: reason } } : {}),
  }));
}

/** True for a promise of an embedder (`EngineOptions.embedder`). */
export function isPromise(value: unknown): value is Promise<Embedder> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** The similarity backend of `options.embedder`, and whether the engine created (so disposes) it. */
export async function createSimilarity(
  options: EngineOptions,
): Promise<{ backend: SimilarityBackend; owned: boolean }> {
  const spec = options.embedder ?? (await defaultEmbedderOptions());
  if (spec === 'tfidf') return { backend: new TfidfSimilarity(), owned: true };
  if (typeof spec !== 'object' || spec === null)
    throw new AnamnesisError('INVALID_INPUT', "embedder must be an embedder, options or 'tfidf'");
  if ('tfidf' in spec) return { backend: new TfidfSimilarity(spec.tfidf), owned: true };
  if ('embed' in spec) return { backend: new DenseSimilarity(spec), owned: false };
  if (isPromise(spec))
    throw new AnamnesisError('INTERNAL', 'a promised embedder has no backend yet');
  const embedder = await createModelEmbedder({ onProgress: options.onProgress, ...spec });
  return { backend: new DenseSimilarity(embedder), owned: true };
}

/** Options loading the embedded default model from its package (Node). */
export async function defaultEmbedderOptions(): Promise<TransformersEmbedderOptions> {
  return { model: MODEL_ID, localModelPath: await modelRootPath() };
}
