// Builds ../lang-<xx>/corpus.json for zh, ja, ru, de, es: man pages cut into passages as the
// extension cuts a page. Run: node apps/bench/corpora/build/build-lang.mjs
// (reads the rendered man pages in $MAN_TXT, default /work/wt/man-txt; see PROVENANCE.md).
import { mkdirSync } from 'node:fs';

import { LANGS, manPage } from './lang-lib.mjs';
import { NEW, QUESTIONS } from './lang-questions.mjs';
import { createdAt, fresh, writeCorpus } from './lib.mjs';

const NAMES = { zh: 'Chinese (zh_CN)', ja: 'Japanese', ru: 'Russian', de: 'German', es: 'Spanish' };

for (const lang of Object.keys(LANGS)) {
  const { cmds } = LANGS[lang];
  const memories = [];
  const byCmd = {};
  cmds.forEach((cmd, ci) => {
    const page = manPage(lang, cmd);
    const time = createdAt(ci, cmds.length);
    const session = `man:${page.name}(${page.section})/${lang}`;
    byCmd[cmd] = page.chunks.map((chunk, i) => {
      const m = {
        id: `m-${lang}-${page.key}-${i}`,
        text: `${page.title}\n${chunk}`,
        session,
        kind: 'page',
        meta: { url: session, title: page.title, chunk: i },
        createdAt: time,
      };
      memories.push(m);
      return m;
    });
  });
  // The questions written before issue 42 stay dev; those added for it get the fresh split.
  const asked = [...QUESTIONS[lang], ...fresh(NEW[lang] ?? [])];
  const questions = asked.map((q) => {
    const ids = [];
    for (const [cmd, anchor] of q.evidence) {
      const hits = byCmd[cmd].filter((m) =>
        typeof anchor === 'string' ? m.text.includes(anchor) : anchor.test(m.text),
      );
      if (hits.length === 0)
        throw new Error(`${lang}: no passage of ${cmd} matches ${anchor} (${q.text})`);
      for (const h of hits) {
        if (!ids.includes(h.id)) ids.push(h.id);
        // An option's line (flags only) that ends a passage is described at the start of the next:
        // both answer.
        const lastLine = h.text.slice(h.text.lastIndexOf('\n') + 1);
        const inLast =
          typeof anchor === 'string'
            ? lastLine.includes(anchor)
            : new RegExp(anchor.source, anchor.flags).test(lastLine);
        const next = byCmd[cmd][byCmd[cmd].indexOf(h) + 1];
        const optionOnly =
          /^-/.test(lastLine) && lastLine.length < 50 && !/\s\S+\s\S+\s/.test(lastLine);
        if (inLast && optionOnly && next && !ids.includes(next.id)) {
          ids.push(next.id);
          console.log(`  ${lang}: ${h.id} ends with "${lastLine}"; ${next.id} added`);
        }
      }
    }
    return { text: q.text, evidence: ids, type: q.type, split: q.split };
  });
  mkdirSync(new URL(`../lang-${lang}/`, import.meta.url), { recursive: true });
  writeCorpus(
    `lang-${lang}`,
    `${NAMES[lang]} man pages from Debian bookworm, cut into 800-character passages`,
    memories,
    questions,
  );
}
