import { EMOJI_NAMES } from './emoji-names.ts';

/**
 * Emoji as words. FTS5's `unicode61` tokenizer treats an emoji as a separator, so neither the
 * index nor a query would see it; here each emoji of a text becomes its Unicode name ("🎉" →
 * "party popper", from `emoji-names.ts`), which the lexical index stores beside the text and a
 * query searches as a phrase.
 */

let names: Map<string, string> | undefined;
let graphemes: Intl.Segmenter | undefined;

/** A pictographic character or a regional indicator (flags): the cheap test before segmenting. */
const PICTOGRAPH = /[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}]/u;
/** Variation selector 16 and the skin-tone modifiers: the names are those of the plain emoji. */
const MODIFIERS = /\uFE0F|\p{Emoji_Modifier}/gu;

function nameTable(): Map<string, string> {
  if (!names) {
    names = new Map();
    for (const line of EMOJI_NAMES.split('\n')) {
      const tab = line.indexOf('\t');
      names.set(line.slice(0, tab), line.slice(tab + 1));
    }
  }
  return names;
}

/** The name of one emoji (a grapheme cluster), or `undefined` when it is none. */
export function emojiName(grapheme: string): string | undefined {
  if (!PICTOGRAPH.test(grapheme)) return undefined;
  const table = nameTable();
  const plain = grapheme.replace(MODIFIERS, '');
  const whole = table.get(plain);
  if (whole !== undefined) return whole;
  // a sequence the table lacks (a newer ZWJ sequence): the names of its parts
  const parts = plain
    .split('\u200D')
    .map((p) => table.get(p))
    .filter((n): n is string => n !== undefined);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** Each emoji of a text, in order, with its name. */
export function emojiIn(text: string): { emoji: string; name: string }[] {
  if (!PICTOGRAPH.test(text)) return [];
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const out: { emoji: string; name: string }[] = [];
  for (const { segment } of graphemes.segment(text)) {
    const name = emojiName(segment);
    if (name !== undefined) out.push({ emoji: segment, name });
  }
  return out;
}
