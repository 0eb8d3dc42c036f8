// Passages of the lang-* corpora: man pages in one language, rendered to text, cut as the
// extension cuts a page.
import { readFileSync } from 'node:fs';

import { chunkText } from './lib.mjs';

export const MAN_DIR = process.env.MAN_TXT ?? '/work/wt/man-txt';

// The nine coreutils pages zh, ja, de and es started with; issue 42 added clusters of related
// pages after them (each other's distractors).
const CORE = ['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'];
const ZH_MORE = [
  // files and directories
  'ls mv rm rmdir touch stat install mktemp readlink realpath basename dirname dd chown chgrp',
  'mknod mkfifo truncate sync link unlink find file xargs chattr lsattr',
  // text filters
  'cat head cut paste uniq wc nl od xxd expand unexpand fmt fold pr tac tee split comm diff',
  'sed grep shuf strings',
  // checksums and encodings
  'md5sum sha1sum sha256sum sha512sum b2sum cksum base64 basenc',
  // archives and compression
  'tar gzip bzip2 cpio ar zipinfo uuencode',
  // processes and the system
  'kill killall nice nohup timeout free uptime sleep env stdbuf at',
  // users and logins
  'id groups who whoami last pinky finger w wall mesg',
  // systemd
  'systemd systemctl journalctl hostnamectl localectl timedatectl loginctl networkctl',
  'systemd-resolve systemd-detect-virt systemd-escape systemd-inhibit busctl',
  // network
  'ssh ftp dig host hostname smbclient nmblookup',
  // shell helpers
  'echo printf test expr seq',
  // terminal and keyboard
  'stty tty uname nproc eject loadkeys dumpkeys showkey setleds xmodmap',
].flatMap((s) => s.split(' '));
const JA_MORE = [
  // files and directories
  'ls mv rm rmdir touch stat install mktemp readlink realpath basename dirname dd chown chgrp',
  'mknod mkfifo truncate sync shred find xargs whereis file chattr lsattr',
  // text filters
  'cat head cut paste uniq wc nl od hexdump expand fmt fold pr tac tee split csplit comm join',
  'diff sdiff cmp sed grep shuf strings tr column',
  // checksums and encodings
  'md5sum sha1sum sha256sum b2sum cksum base64 basenc',
  // archives and compression
  'tar gzip bzip2 cpio ar',
  // processes
  'ps kill killall pgrep pstree nice renice nohup timeout free uptime watch time fuser at',
  'crontab',
  // users and logins
  'id groups who whoami w last',
  // shell helpers
  'env echo printf test expr seq',
].flatMap((s) => s.split(' '));

export const LANGS = {
  zh: { file: 'zh_CN', cmds: [...CORE, ...ZH_MORE] },
  ja: { file: 'ja', cmds: [...CORE, ...JA_MORE] },
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
