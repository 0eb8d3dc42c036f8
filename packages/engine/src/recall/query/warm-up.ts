import { asksSelf, relationsOf } from '@anamnesis/ranking';

import { parseQuery } from './parse.ts';
import { readTime } from './time.ts';

/**
 * Reads a plain query once, so that the regular expressions a query's reading uses (the time
 * gates', the parse's, the spelling table, the words of a fact the query may ask about) are
 * compiled before the first recall instead of in it.
 * The client's worker calls it while it waits for the tab to send the store's open (30 ms or more
 * in which it is otherwise idle). In Chromium at 10k memories, a first recall's query stage took
 * 8.6–19.3 ms with it (five runs) and 28.1–29 without (two; `bench:speed`, 2026-12-07). The time
 * parsers are not warmed here: a first parse costs 30–60 ms, more than that wait (the engine warms
 * them up once it is quiet). Whether a query asks about the writer's own fact (`asksSelf`, on
 * every recall) compiled its expression of words at the first recall: 19 ms of a cold Chromium
 * worker's first recall at 100k memories (a CPU profile, 2026-12-08), now read here.
 */
export function warmUpQueryReading(): void {
  readTime('what did I cook', 0);
  parseQuery("what colour is the sofa, don't", true);
  if (asksSelf('where do I live now')) relationsOf('where do I live now');
}
