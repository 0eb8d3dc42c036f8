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
  // ru: manpages-ru has few section 1 pages (glibc's and two of coreutils'); the pages added for
  // issue 42 are its other glibc tools and sections 5, 7 and 8 (files, overviews, admin tools).
  ru: {
    file: 'ru',
    cmds: [
      ...['cat', 'ls', 'iconv', 'ldd', 'locale', 'getent'],
      ...['localedef', 'memusage', 'memusagestat', 'sprof', 'pldd', 'mtrace', 'intro'],
      ...['ld.so(8)', 'iconvconfig(8)', 'zdump(8)', 'sln(8)'],
      ...['locale(5)', 'locale(7)', 'charsets(7)', 'utf-8(7)', 'unicode(7)'],
      ...['nsswitch.conf(5)', 'hosts(5)', 'host.conf(5)', 'resolv.conf(5)', 'gai.conf(5)'],
      ...['services(5)', 'protocols(5)', 'udp(7)', 'icmp(7)', 'arp(7)'],
      ...['hier(7)', 'filesystems(5)', 'tmpfs(5)', 'sysfs(5)', 'symlink(7)', 'inode(7)'],
      ...['dir_colors(5)', 'utmp(5)', 'shells(5)', 'nologin(5)', 'motd(5)', 'securetty(5)'],
      ...['acct(5)', 'core(5)', 'boot(7)', 'signal(7)', 'pipe(7)', 'fifo(7)', 'time(7)'],
      ...['random(7)'],
    ],
  },
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
  // es: as de where manpages-es has the page; manpages-es is smaller, so also more coreutils pages,
  // process accounting, logrotate(8) and the net-tools pages (section 8).
  es: {
    file: 'es',
    cmds: [
      ...['cp', 'mkdir', 'chmod', 'date', 'df', 'du', 'tail', 'sort', 'ln'],
      ...['cut', 'tr', 'uniq', 'wc', 'head', 'paste', 'join', 'comm', 'nl', 'tac', 'split', 'od'],
      ...['seq', 'shuf', 'tee', 'numfmt', 'fold', 'fmt', 'expand', 'unexpand', 'csplit', 'pr'],
      ...['mv', 'rm', 'touch', 'stat', 'readlink', 'realpath', 'install', 'mktemp', 'dd', 'shred'],
      ...['truncate', 'chown', 'chgrp', 'basename', 'dirname', 'mkfifo', 'mknod', 'sync'],
      ...['md5sum', 'sha256sum', 'b2sum', 'cksum', 'base64'],
      ...['nice', 'nohup', 'timeout', 'env', 'stdbuf', 'renice', 'setsid', 'sleep', 'nproc'],
      ...['printenv', 'test', 'expr', 'printf', 'echo'],
      ...['id', 'who', 'whoami', 'groups', 'users', 'pinky', 'tty', 'uname', 'last', 'ac'],
      ...['lastcomm', 'sa(8)', 'accton(8)', 'stty', 'dircolors', 'chroot(8)'],
      ...['grep', 'diff', 'bzip2', 'logrotate(8)', 'hostname', 'ifconfig(8)', 'route(8)'],
      ...['netstat(8)'],
    ],
  },
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
