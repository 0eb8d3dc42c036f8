// Passages of the lang-* corpora: man pages in one language, rendered to text, cut as the
// extension cuts a page.
import { readFileSync } from 'node:fs';

import { chunkText } from './lib.mjs';

export const MAN_DIR = process.env.MAN_TXT ?? '/work/wt/man-txt';

export const LANGS = {
  zh: { file: 'zh_CN', cmds: ['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'] },
  ja: { file: 'ja', cmds: ['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'] },
  ru: { file: 'ru', cmds: ['cat', 'ls', 'iconv', 'ldd', 'locale', 'getent'] },
  de: { file: 'de', cmds: ['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'] },
  es: { file: 'es', cmds: ['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'] },
};

/** One man page: header and footer lines dropped, runs of spaces collapsed, then chunked. */
export function manPage(lang, cmd) {
  const raw = readFileSync(`${MAN_DIR}/${LANGS[lang].file}-${cmd}.txt`, 'utf8');
  const lines = raw.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const body = lines.slice(1, -1).map((l) => l.replace(/ {2,}/g, ' ').trim());
  // The NAME section's first line ("df - 报告文件系统空间使用情况").
  const nameLine = body.slice(1).find((l) => l.length > 0 && /\s[-—–]\s/.test(l)) ?? cmd;
  const chunks = chunkText(body.join('\n'));
  return { cmd, nameLine, chunks, title: `${cmd}(1) — ${nameLine}` };
}
