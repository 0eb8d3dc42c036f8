// Passages of the lang-* corpora: man pages in one language, rendered to text, cut as the
// extension cuts a page.
import { readFileSync } from 'node:fs';

import { chunkText } from './lib.mjs';

export const MAN_DIR = process.env.MAN_TXT ?? '/work/wt/man-txt';

export const LANGS = {
  zh: { file: 'zh_CN', cmds: ['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'] },
  ja: { file: 'ja', cmds: ['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'] },
  ru: { file: 'ru', cmds: ['cat', 'ls', 'iconv', 'ldd', 'locale', 'getent'] },
  // de: the nine coreutils pages of the first build, then (issue 42) clusters of related commands.
  de: {
    file: 'de',
    cmds: [
      ...['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'],
      ...['cut', 'tr', 'uniq', 'wc', 'head', 'paste', 'join', 'comm', 'nl', 'tac', 'split', 'od'],
      ...['seq', 'shuf', 'tee', 'numfmt', 'fold', 'fmt', 'expand', 'column'],
      ...['mv', 'rm', 'touch', 'stat', 'readlink', 'realpath', 'install', 'mktemp', 'dd', 'shred'],
      ...['truncate', 'chown', 'chgrp', 'basename', 'dirname'],
      ...['md5sum', 'sha256sum', 'b2sum', 'cksum', 'base64'],
      ...['nice', 'nohup', 'timeout', 'env', 'stdbuf', 'renice', 'setsid', 'ionice', 'taskset'],
      ...['flock', 'id', 'who', 'whoami', 'groups', 'uname', 'last', 'stty', 'hostname', 'su'],
      ...['crontab', 'dmesg', 'grep', 'diff', 'cmp', 'strings', 'gzip', 'bzip2', 'tar'],
    ],
  },
  es: { file: 'es', cmds: ['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'] },
};

/**
 * A `cmds` entry: `ls` is ls(1); `proc(5)` names another section. `key` is the page's name in the
 * file names and memory ids (`ls`, `proc.5`).
 */
export function pageName(entry) {
  const m = /^(.+)\((\d)\)$/.exec(entry);
  const [name, section] = m ? [m[1], m[2]] : [entry, '1'];
  return { name, section, key: section === '1' ? name : `${name}.${section}` };
}

/** One man page: header and footer lines dropped, runs of spaces collapsed, then chunked. */
export function manPage(lang, cmd) {
  const { name, section, key } = pageName(cmd);
  const raw = readFileSync(`${MAN_DIR}/${LANGS[lang].file}-${key}.txt`, 'utf8');
  const lines = raw.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const body = lines.slice(1, -1).map((l) => l.replace(/ {2,}/g, ' ').trim());
  // The NAME section's first line ("df - 报告文件系统空间使用情况").
  const nameLine = body.slice(1).find((l) => l.length > 0 && /\s[-—–]\s/.test(l)) ?? name;
  const chunks = chunkText(body.join('\n'));
  return { cmd, name, key, section, nameLine, chunks, title: `${name}(${section}) — ${nameLine}` };
}
