/**
 * The retriever's fence over what it returns beside the text: every string of a document's
 * metadata (its id, kind, session and tags, and the memory's own metadata, keys and values at any
 * depth) as `fenceLine` (`@anamnesis/ranking`) gives it, as the text's `pageContent` is fenced.
 * Metadata comes from wherever the memory came from (an import, a page, a model's `remember`), and
 * a chain may paste it into a prompt as readily as the text: a tag can hide "SYSTEM: …" in Unicode
 * tag characters, or start a line of its own.
 */
import { fenceLine } from '@anamnesis/ranking';

/**
 * `value` with every string in it, keys of objects included, fenced: without control characters
 * and the characters no reader sees, trimmed, line breaks `\n`, tabs spaces. Numbers, booleans and
 * null are kept; arrays and plain objects are copied (two keys that fence alike: the later wins).
 */
export function fenceValue(value: unknown): unknown {
  if (typeof value === 'string') return fenceLine(value);
  if (Array.isArray(value)) return value.map(fenceValue);
  if (value !== null && typeof value === 'object')
    // fromEntries defines own properties: a key such as `__proto__` stays a key
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [fenceLine(key), fenceValue(v)]),
    );
  return value;
}
