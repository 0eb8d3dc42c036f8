import type { RecallResult } from '@anamnesis/engine';
import { h } from './dom.ts';

const LEG_NAMES: Record<string, string> = {
  fts: 'words (BM25)',
  vector: 'meaning (vectors)',
  graph: 'links',
  usage: 'your usage',
  importance: 'importance',
  recency: 'recency',
};

/**
 * The explain view of one result: a bar per component sized by its share of the score (negative
 * ones in another colour), the legs that found it with their rank and raw score, and the sum.
 */
export function explainView(result: RecallResult): HTMLElement {
  const ex = result.explain;
  if (!ex) return h('div');
  const max = Math.max(...ex.contributions.map((c) => Math.abs(c.contribution)), 1e-12);
  const total = ex.contributions.reduce((s, c) => s + c.contribution, 0);
  return h(
    'div',
    // The engine's score as it came (not rounded): what the bars must add up to.
    { class: 'explain', 'data-testid': 'explain', 'data-score': String(result.score) },
    h(
      'ul',
      { class: 'bars', 'aria-label': 'Contributions' },
      ...ex.contributions.map((c) =>
        h(
          'li',
          {
            class: 'bar-row',
            'data-component': c.component,
            'data-contribution': String(c.contribution),
          },
          h('span', { class: 'bar-label' }, c.component.replace(/^rrf:/, '')),
          h(
            'span',
            { class: 'bar-track' },
            h('span', {
              class: c.contribution < 0 ? 'bar negative' : 'bar',
              style: `width:${((Math.abs(c.contribution) / max) * 100).toFixed(1)}%`,
            }),
          ),
          h('span', { class: 'bar-value' }, c.contribution.toFixed(4)),
        ),
      ),
    ),
    h(
      'p',
      { class: 'sum' },
      'sum ',
      h('strong', { 'data-testid': 'explain-sum', 'data-value': String(total) }, total.toFixed(4)),
      ` = score ${result.score.toFixed(4)} (${ex.profile})`,
    ),
    h(
      'p',
      { class: 'legs' },
      'found by: ',
      ...ex.legs.flatMap((l, i) => [
        i > 0 ? ', ' : '',
        h('span', { class: `leg leg-${l.leg}` }, `${LEG_NAMES[l.leg] ?? l.leg} #${l.rank}`),
      ]),
      ex.legs.length === 0 ? 'neighbour of another result' : '',
    ),
  );
}

/**
 * "Why this result?": a disclosure whose explain view is built when it is first opened (by a
 * click, the keyboard or a script), not for every result of every keystroke.
 */
export function explainDetails(result: RecallResult): HTMLDetailsElement {
  const summary = h('summary', {}, 'Why this result?');
  const details = h('details', { class: 'why' }, summary);
  const fill = () => {
    if (details.childElementCount === 1) details.append(explainView(result));
  };
  // A click builds it before the disclosure opens; `toggle` covers opening it any other way.
  summary.addEventListener('click', fill);
  details.addEventListener('toggle', fill);
  return details;
}
