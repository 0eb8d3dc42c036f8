/**
 * Test support for the adapters' invisible-text tests (issue 71): every code point a fence must
 * strip, in runs to store as memories, and the helpers that look for survivors in what reached a
 * model. Shared by the ai-sdk, langchain and mcp tests, which check the same classes.
 */

/** The classes the fence strips, as Unicode defines them (tab and line feed stay). */
export const HIDDEN = /(?![\t\n])[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}]/u;

/** Every code point in {@link HIDDEN}, each a string (lone surrogates left out). */
export const hidden: readonly string[] = (() => {
  const out: string[] = [];
  for (let c = 0; c <= 0x10ffff; c++) {
    const s = c >= 0xd800 && c <= 0xdfff ? '' : String.fromCodePoint(c);
    if (s !== '' && HIDDEN.test(s)) out.push(s);
  }
  return out;
})();

/** The hidden code points in runs of 200, one memory (or topic) each. */
export const RUNS: readonly string[] = Array.from(
  { length: Math.ceil(hidden.length / 200) },
  (_, i) => hidden.slice(i * 200, (i + 1) * 200).join(''),
);

/** Every string in `value` (object keys too), joined. */
export const strings = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : Array.isArray(value)
      ? value.map(strings).join(' ')
      : value !== null && typeof value === 'object'
        ? Object.entries(value)
            .map(([k, v]) => `${k} ${strings(v)}`)
            .join(' ')
        : '';

/** The hidden code points among `text`'s, as U+XXXX. */
export const survivors = (text: string): string[] =>
  [...new Set(Array.from(text).filter((c) => HIDDEN.test(c)))].map(
    (c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase()}`,
  );

/** `text` in U+E0080 + each ASCII code: reserved tag-block code points, drawn as nothing. */
export const smuggled = (text: string): string =>
  Array.from(text, (c) => String.fromCodePoint(0xe0080 + c.codePointAt(0)!)).join('');
