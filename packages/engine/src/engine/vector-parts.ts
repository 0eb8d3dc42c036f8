import { transaction } from '../store/sqlite.ts';
import type { EngineContext } from './context.ts';

/**
 * Quiet time (ms) after the last call before the stored vectors' snapshot parts are written
 * behind the writes, one part per task; any call in between postpones the next part.
 */
const VECTOR_PARTS_IDLE_MS = 1000;

/**
 * Writes the stored vectors' snapshot parts (see `vector-snapshot.ts`) behind the writes: the
 * next part once the engine has been quiet for {@link VECTOR_PARTS_IDLE_MS}, then the next, while
 * parts are due; each part is one transaction on the write path. A part that cannot be written (a
 * full disk) is left for the next write or close: the parts only speed up the next open.
 */
export class VectorParts {
  readonly #ctx: EngineContext;
  /** The next write of a part, when one is due. */
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(ctx: EngineContext) {
    this.#ctx = ctx;
  }

  /** True while a part's write is scheduled (a call then postpones it). */
  get scheduled(): boolean {
    return this.#timer !== undefined;
  }

  /** Schedules the next part `delay` ms from now, if one is due; clears the timer otherwise. */
  schedule(delay = VECTOR_PARTS_IDLE_MS): void {
    const ctx = this.#ctx;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (ctx.closing() || !ctx.similarity().vectorPartsDue?.()) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      ctx
        .run(
          () =>
            ctx.writes.exclusive(async () => {
              if (ctx.closed()) return false;
              // a part reads ~1 MB of stored vectors once: not through the store's page cache
              return ctx.bulkRead(() =>
                transaction(ctx.db, 'saving a snapshot part of the vectors', () =>
                  ctx.similarity().saveVectorPart!(ctx.db, ctx.read, false),
                ),
              );
            }),
          false,
        )
        .then(
          (wrote) => {
            if (wrote && this.#timer === undefined) this.schedule(0);
          },
          () => undefined,
        );
    }, delay);
    (this.#timer as { unref?: () => void }).unref?.(); // never keeps Node alive
  }
}
