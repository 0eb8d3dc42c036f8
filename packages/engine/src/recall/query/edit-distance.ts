/**
 * The Damerau–Levenshtein distance in its optimal-string-alignment form (insertions, deletions,
 * substitutions and transpositions of two neighbouring characters, each counted 1), compared on
 * code points, stopping as soon as it must exceed `max`: typo correction compares a word with
 * thousands of vocabulary words and keeps only those within one or two edits, so most
 * comparisons end after a row or two. (npm's `damerau-levenshtein` computes the whole matrix with
 * no bound; `fastest-levenshtein` has no transpositions, the commonest typo: "restuarant".)
 *
 * Returns the distance when it is at most `max`, else `max + 1`.
 */
export function editDistance(a: string, b: string, max: number): number {
  const s = Array.from(a);
  const t = Array.from(b);
  if (Math.abs(s.length - t.length) > max) return max + 1;
  const n = t.length;
  let before = new Array<number>(n + 1).fill(0); // row i − 2
  let prev = Array.from({ length: n + 1 }, (_, j) => j); // row i − 1
  let row = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= s.length; i++) {
    row[0] = i;
    let best = i;
    for (let j = 1; j <= n; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1])
        d = Math.min(d, before[j - 2]! + 1);
      row[j] = d;
      if (d < best) best = d;
    }
    if (best > max) return max + 1;
    [before, prev, row] = [prev, row, before];
  }
  return Math.min(prev[n]!, max + 1);
}
