/**
 * The word-neighbour table of a built static model (`neighbours.bin`, see
 * `src/neighbour-table.ts`): every token's nearest words, computed by the engine's own
 * `WordNeighbours` (imported from its source, so the build and the runtime share one definition),
 * for the runtime to read instead of searching the table per query word.
 */
import {
  NEIGHBOUR_MIN_COSINE,
  NEIGHBOURS_PER_WORD,
  WordNeighbours,
} from '../../../engine/src/embedding/word-neighbours.ts';
import { objectVocabulary } from '../../../engine/src/embedding/vocabulary.ts';
import { encodeNeighbourTable, readStaticWeights, weightsFingerprint } from '../../src/index.ts';

/** The table's bytes for a model's `tokenizer.json` and ONNX file. */
export function neighbourTableFile(tokenizerJson: Uint8Array, onnx: Uint8Array): Uint8Array {
  const weights = readStaticWeights(onnx);
  const { vocab } = (
    JSON.parse(new TextDecoder().decode(tokenizerJson)) as {
      model: { vocab: Record<string, number> };
    }
  ).model;
  const words = new WordNeighbours(
    objectVocabulary(vocab),
    weights.table,
    weights.scale,
    weights.dims,
  );
  return encodeNeighbourTable({
    rows: weights.vocabSize,
    dims: weights.dims,
    fingerprint: weightsFingerprint(weights),
    perWord: NEIGHBOURS_PER_WORD,
    minCosine: Math.fround(NEIGHBOUR_MIN_COSINE),
    neighbours: words.everyWord(),
  });
}
