/**
 * Keeps the evaluation out of the training data. `bench:quality`'s corpora (`apps/bench/corpora`)
 * hold Debian package descriptions (notes), Debian man pages (lang-*) and npm READMEs (pages);
 * every Debian package they come from, every package built from the same source, and every
 * package that carries the same description is excluded, and a text check fails the build when
 * any passage of those corpora still appears in a training text.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The Debian package that ships each man page the lang-* corpora quote (bookworm). */
export const MAN_PAGE_PACKAGES: Readonly<Record<string, string>> = {
  cat: 'coreutils',
  chmod: 'coreutils',
  cp: 'coreutils',
  date: 'coreutils',
  df: 'coreutils',
  du: 'coreutils',
  ln: 'coreutils',
  ls: 'coreutils',
  mkdir: 'coreutils',
  sort: 'coreutils',
  tail: 'coreutils',
  getent: 'libc-bin',
  iconv: 'libc-bin',
  ldd: 'libc-bin',
  locale: 'libc-bin',
  // lang-de (issue 42)
  b2sum: 'coreutils',
  base64: 'coreutils',
  basename: 'coreutils',
  chgrp: 'coreutils',
  chown: 'coreutils',
  cksum: 'coreutils',
  comm: 'coreutils',
  cut: 'coreutils',
  dd: 'coreutils',
  dirname: 'coreutils',
  env: 'coreutils',
  expand: 'coreutils',
  fmt: 'coreutils',
  fold: 'coreutils',
  groups: 'coreutils',
  head: 'coreutils',
  id: 'coreutils',
  install: 'coreutils',
  join: 'coreutils',
  md5sum: 'coreutils',
  mktemp: 'coreutils',
  mv: 'coreutils',
  nice: 'coreutils',
  nl: 'coreutils',
  nohup: 'coreutils',
  numfmt: 'coreutils',
  od: 'coreutils',
  paste: 'coreutils',
  readlink: 'coreutils',
  realpath: 'coreutils',
  rm: 'coreutils',
  seq: 'coreutils',
  sha256sum: 'coreutils',
  shred: 'coreutils',
  shuf: 'coreutils',
  split: 'coreutils',
  stat: 'coreutils',
  stdbuf: 'coreutils',
  stty: 'coreutils',
  tac: 'coreutils',
  tee: 'coreutils',
  timeout: 'coreutils',
  touch: 'coreutils',
  tr: 'coreutils',
  truncate: 'coreutils',
  uname: 'coreutils',
  uniq: 'coreutils',
  wc: 'coreutils',
  who: 'coreutils',
  whoami: 'coreutils',
  strings: 'binutils-common',
  column: 'bsdextrautils',
  renice: 'bsdutils',
  bzip2: 'bzip2',
  crontab: 'cron',
  cmp: 'diffutils',
  diff: 'diffutils',
  grep: 'grep',
  gzip: 'gzip',
  hostname: 'hostname',
  tar: 'tar',
  dmesg: 'util-linux',
  flock: 'util-linux',
  ionice: 'util-linux',
  last: 'util-linux',
  setsid: 'util-linux',
  su: 'util-linux',
  taskset: 'util-linux',
  // lang-ru (issue 42): the Linux man-pages project's pages (sections 1, 5, 7, 8); locale(5) and
  // locale(7) share the key `locale` above
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
  time: 'manpages',
  tmpfs: 'manpages',
  udp: 'manpages',
  unicode: 'manpages',
  'utf-8': 'manpages',
  utmp: 'manpages',
  zdump: 'manpages',
  // lang-es (issue 42; the pages it shares with lang-de are above)
  chroot: 'coreutils',
  csplit: 'coreutils',
  dircolors: 'coreutils',
  echo: 'coreutils',
  expr: 'coreutils',
  mkfifo: 'coreutils',
  mknod: 'coreutils',
  nproc: 'coreutils',
  pinky: 'coreutils',
  pr: 'coreutils',
  printenv: 'coreutils',
  printf: 'coreutils',
  sleep: 'coreutils',
  sync: 'coreutils',
  test: 'coreutils',
  tty: 'coreutils',
  unexpand: 'coreutils',
  users: 'coreutils',
  ac: 'acct',
  accton: 'acct',
  lastcomm: 'acct',
  sa: 'acct',
  logrotate: 'logrotate',
  ifconfig: 'net-tools',
  netstat: 'net-tools',
  route: 'net-tools',
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
      const man = /^man:([a-z0-9._-]+)\(\d\)\/([a-z_A-Z]+)$/.exec(session);
      if (man) {
        const [, command, lang] = man;
        const provider = MAN_PAGE_PACKAGES[command!];
        if (!provider) throw new Error(`${name}: no package known for the man page ${command}`);
        packages.set(provider, `${name}: ships the original of ${command}(1)`);
        packages.set(`manpages-${lang}`, `${name}: ships the translated ${command}(1)`);
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
