/**
 * Keeps the evaluation out of the training data. `bench:quality`'s corpora (`apps/bench/corpora`)
 * hold Debian package descriptions (notes), Debian man pages (lang-*) and npm READMEs (pages);
 * every Debian package they come from, every package built from the same source, and every
 * package that carries the same description is excluded, and a text check fails the build when
 * any passage of those corpora still appears in a training text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Debian package that ships the English original of each man page the lang-* corpora quote
 * (bookworm). `ftp`: tnftp ships the client and its page (the `ftp` package is a transitional one
 * that depends on it); `systemd-resolve`: systemd-resolved, whose `resolvectl` page it became.
 * A page outside section 1 is looked up as `name(section)` first (time(7) is not time(1)), then by
 * its name.
 */
export const MAN_PAGE_PACKAGES: Readonly<Record<string, string>> = {
  ac: 'acct',
  accton: 'acct',
  lastcomm: 'acct',
  sa: 'acct',
  at: 'at',
  dig: 'bind9-dnsutils',
  host: 'bind9-host',
  ar: 'binutils-common',
  strings: 'binutils-common',
  column: 'bsdextrautils',
  hexdump: 'bsdextrautils',
  renice: 'bsdutils',
  wall: 'bsdutils',
  bzip2: 'bzip2',
  b2sum: 'coreutils',
  base64: 'coreutils',
  basename: 'coreutils',
  basenc: 'coreutils',
  cat: 'coreutils',
  chgrp: 'coreutils',
  chmod: 'coreutils',
  chown: 'coreutils',
  chroot: 'coreutils',
  cksum: 'coreutils',
  comm: 'coreutils',
  cp: 'coreutils',
  csplit: 'coreutils',
  cut: 'coreutils',
  date: 'coreutils',
  dd: 'coreutils',
  df: 'coreutils',
  dircolors: 'coreutils',
  dirname: 'coreutils',
  du: 'coreutils',
  echo: 'coreutils',
  env: 'coreutils',
  expand: 'coreutils',
  expr: 'coreutils',
  fmt: 'coreutils',
  fold: 'coreutils',
  groups: 'coreutils',
  head: 'coreutils',
  id: 'coreutils',
  install: 'coreutils',
  join: 'coreutils',
  link: 'coreutils',
  ln: 'coreutils',
  ls: 'coreutils',
  md5sum: 'coreutils',
  mkdir: 'coreutils',
  mkfifo: 'coreutils',
  mknod: 'coreutils',
  mktemp: 'coreutils',
  mv: 'coreutils',
  nice: 'coreutils',
  nl: 'coreutils',
  nohup: 'coreutils',
  nproc: 'coreutils',
  numfmt: 'coreutils',
  od: 'coreutils',
  paste: 'coreutils',
  pinky: 'coreutils',
  pr: 'coreutils',
  printenv: 'coreutils',
  printf: 'coreutils',
  readlink: 'coreutils',
  realpath: 'coreutils',
  rm: 'coreutils',
  rmdir: 'coreutils',
  seq: 'coreutils',
  sha1sum: 'coreutils',
  sha256sum: 'coreutils',
  sha512sum: 'coreutils',
  shred: 'coreutils',
  shuf: 'coreutils',
  sleep: 'coreutils',
  sort: 'coreutils',
  split: 'coreutils',
  stat: 'coreutils',
  stdbuf: 'coreutils',
  stty: 'coreutils',
  sync: 'coreutils',
  tac: 'coreutils',
  tail: 'coreutils',
  tee: 'coreutils',
  test: 'coreutils',
  timeout: 'coreutils',
  touch: 'coreutils',
  tr: 'coreutils',
  truncate: 'coreutils',
  tty: 'coreutils',
  uname: 'coreutils',
  unexpand: 'coreutils',
  uniq: 'coreutils',
  unlink: 'coreutils',
  users: 'coreutils',
  wc: 'coreutils',
  who: 'coreutils',
  whoami: 'coreutils',
  cpio: 'cpio',
  crontab: 'cron',
  cmp: 'diffutils',
  diff: 'diffutils',
  sdiff: 'diffutils',
  chattr: 'e2fsprogs',
  lsattr: 'e2fsprogs',
  eject: 'eject',
  file: 'file',
  find: 'findutils',
  xargs: 'findutils',
  finger: 'finger',
  grep: 'grep',
  gzip: 'gzip',
  hostname: 'hostname',
  dumpkeys: 'kbd',
  loadkeys: 'kbd',
  setleds: 'kbd',
  showkey: 'kbd',
  getent: 'libc-bin',
  iconv: 'libc-bin',
  ldd: 'libc-bin',
  locale: 'libc-bin',
  logrotate: 'logrotate',
  acct: 'manpages',
  arp: 'manpages',
  boot: 'manpages',
  charsets: 'manpages',
  core: 'manpages',
  dir_colors: 'manpages',
  fifo: 'manpages',
  filesystems: 'manpages',
  'gai.conf': 'manpages',
  hier: 'manpages',
  'host.conf': 'manpages',
  hosts: 'manpages',
  icmp: 'manpages',
  iconvconfig: 'manpages',
  inode: 'manpages',
  intro: 'manpages',
  'ld.so': 'manpages',
  localedef: 'manpages',
  memusage: 'manpages',
  memusagestat: 'manpages',
  motd: 'manpages',
  mtrace: 'manpages',
  nologin: 'manpages',
  'nsswitch.conf': 'manpages',
  pipe: 'manpages',
  pldd: 'manpages',
  protocols: 'manpages',
  random: 'manpages',
  'resolv.conf': 'manpages',
  securetty: 'manpages',
  services: 'manpages',
  shells: 'manpages',
  signal: 'manpages',
  sln: 'manpages',
  sprof: 'manpages',
  symlink: 'manpages',
  sysfs: 'manpages',
  tmpfs: 'manpages',
  udp: 'manpages',
  unicode: 'manpages',
  'utf-8': 'manpages',
  utmp: 'manpages',
  zdump: 'manpages',
  ifconfig: 'net-tools',
  netstat: 'net-tools',
  route: 'net-tools',
  ssh: 'openssh-client',
  free: 'procps',
  kill: 'procps',
  pgrep: 'procps',
  ps: 'procps',
  uptime: 'procps',
  w: 'procps',
  watch: 'procps',
  fuser: 'psmisc',
  killall: 'psmisc',
  pstree: 'psmisc',
  nmblookup: 'samba-common-bin',
  sed: 'sed',
  uuencode: 'sharutils',
  smbclient: 'smbclient',
  busctl: 'systemd',
  hostnamectl: 'systemd',
  journalctl: 'systemd',
  localectl: 'systemd',
  loginctl: 'systemd',
  networkctl: 'systemd',
  systemctl: 'systemd',
  systemd: 'systemd',
  'systemd-detect-virt': 'systemd',
  'systemd-escape': 'systemd',
  'systemd-inhibit': 'systemd',
  timedatectl: 'systemd',
  'systemd-resolve': 'systemd-resolved',
  tar: 'tar',
  time: 'time',
  'time(7)': 'manpages',
  ftp: 'tnftp',
  zipinfo: 'unzip',
  dmesg: 'util-linux',
  flock: 'util-linux',
  ionice: 'util-linux',
  last: 'util-linux',
  mesg: 'util-linux',
  setsid: 'util-linux',
  su: 'util-linux',
  taskset: 'util-linux',
  whereis: 'util-linux',
  xmodmap: 'x11-xserver-utils',
  xxd: 'xxd',
};

/**
 * Debian's names for an npm library: the Node module, the browser build, the Ruby port. A scoped
 * name loses its `@` and its `/` becomes `-` (`@jridgewell/sourcemap-codec` is
 * `node-jridgewell-sourcemap-codec`).
 */
const NPM_DEBIAN_NAMES = (npmName: string): string[] => {
  const name = npmName.replace(/^@/, '').replace('/', '-');
  return [`node-${name}`, `libjs-${name}`, `ruby-${name}`];
};

interface CorpusJson {
  name: string;
  memories: { id: string; text: string; session?: string }[];
}

/** What the evaluation uses, read from the corpora. */
export interface EvaluationPackages {
  /** Debian binary packages named by the corpora, with why. */
  packages: Map<string, string>;
  /** Every corpus passage (notes, pages, lang-*), for the text check. */
  passages: { corpus: string; id: string; text: string }[];
  /** The corpora read, in order. */
  corpora: string[];
}

/** Reads `apps/bench/corpora`: the packages each corpus comes from and every passage. */
export function evaluationPackages(corporaDir: string): EvaluationPackages {
  const packages = new Map<string, string>();
  const passages: EvaluationPackages['passages'] = [];
  const corpora = ['notes', 'pages', 'lang-de', 'lang-es', 'lang-ja', 'lang-ru', 'lang-zh'];
  const notes = JSON.parse(
    readFileSync(join(corporaDir, 'build', 'notes-source.json'), 'utf8'),
  ) as { pkg: string }[];
  for (const n of notes) packages.set(n.pkg, 'notes: its description is a note');
  for (const name of corpora) {
    const corpus = JSON.parse(
      readFileSync(join(corporaDir, name, 'corpus.json'), 'utf8'),
    ) as CorpusJson;
    for (const m of corpus.memories) {
      passages.push({ corpus: name, id: m.id, text: m.text });
      const session = m.session ?? '';
      const man = /^man:([a-z0-9._-]+)\((\d)\)\/([a-z_A-Z]+)$/.exec(session);
      if (man) {
        const [, command, section, lang] = man;
        const page = `${command}(${section})`;
        const provider = MAN_PAGE_PACKAGES[page] ?? MAN_PAGE_PACKAGES[command!];
        if (!provider) throw new Error(`${name}: no package known for the man page ${page}`);
        packages.set(provider, `${name}: ships the original of ${page}`);
        packages.set(`manpages-${lang}`, `${name}: ships the translated ${page}`);
      }
      const npm = /^https:\/\/www\.npmjs\.com\/package\/(.+)$/.exec(session);
      if (npm) {
        for (const debian of NPM_DEBIAN_NAMES(npm[1]!))
          packages.set(debian, `${name}: packages the npm library ${npm[1]}`);
      }
      if (name === 'notes' && !packages.has(session.replace(/^n-/, ''))) {
        throw new Error(`notes: ${session} is not in build/notes-source.json`);
      }
      if (name.startsWith('lang-') && !man) throw new Error(`${name}: unknown session ${session}`);
      if (name === 'pages' && !npm) throw new Error(`pages: unknown session ${session}`);
    }
  }
  return { packages, passages, corpora };
}

/** Whitespace collapsed and lower case, for comparing texts. */
export function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/**
 * Probes of a passage for the text check: its lines of at least 60 characters (the body of a
 * note, a paragraph of a man page), or its whole text when no line is that long, flattened.
 * Generic short lines ("BESCHREIBUNG", option flags) are left out: they are not the passage.
 */
export function probesOf(text: string): string[] {
  const lines = text
    .split('\n')
    .map(flatten)
    .filter((l) => l.length >= 60);
  return lines.length > 0 ? lines.map((l) => l.slice(0, 120)) : [flatten(text)];
}

/** Characters of a probe's start looked up at every word start of a text. */
const KEY = 24;

/**
 * The texts (by index) that contain a probe of a passage, each with the first such passage: a
 * description or man page of the evaluation in the training data, under any package name. Probes
 * start at a word, so only word starts of the texts are looked up (a map from each probe's first
 * {@link KEY} characters), which keeps the check to about a second over all the descriptions.
 */
export function textsWithPassages(
  passages: EvaluationPackages['passages'],
  texts: readonly string[],
): Map<number, EvaluationPackages['passages'][number]> {
  const byKey = new Map<
    string,
    { probe: string; passage: EvaluationPackages['passages'][number] }[]
  >();
  for (const passage of passages) {
    for (const probe of probesOf(passage.text)) {
      if (probe.length < KEY) continue;
      const key = probe.slice(0, KEY);
      const list = byKey.get(key) ?? [];
      list.push({ probe, passage });
      byKey.set(key, list);
    }
  }
  const found = new Map<number, EvaluationPackages['passages'][number]>();
  texts.forEach((raw, index) => {
    const text = flatten(raw);
    for (let i = 0; i + KEY <= text.length; i++) {
      if (i > 0 && text.charCodeAt(i - 1) !== 0x20) continue;
      const list = byKey.get(text.slice(i, i + KEY));
      const hit = list?.find((c) => text.startsWith(c.probe, i));
      if (hit) {
        found.set(index, hit.passage);
        return;
      }
    }
  });
  return found;
}

/** Throws when any text contains a probe of a passage (see {@link textsWithPassages}). */
export function assertNoPassageInTraining(
  passages: EvaluationPackages['passages'],
  trainingTexts: readonly string[],
): void {
  const found = textsWithPassages(passages, trainingTexts);
  for (const [index, p] of found) {
    throw new Error(
      `leakage: a training text contains ${p.corpus}/${p.id}: "${flatten(trainingTexts[index]!).slice(0, 80)}…"`,
    );
  }
}
