// Grows notes-source.json to ~1,100 notes (issue 42): appends, after the first 64 (kept as they
// are), every Debian bookworm package of the sections `editors`, `video` and `graphics`, the
// compression and archiving tools of `utils` and the players, encoders, editors, rippers and
// taggers of `sound`, that is a program rather than a library, plugin, data or documentation
// package and has a real long description (not a transitional or dummy package). The many similar
// tools (image viewers, editors, compressors, video players) are each other's distractors.
// Needs apt-cache with the English translations (`apt-get update -o Acquire::Languages=en`).
// Run: node apps/bench/corpora/build/extract-notes-more.mjs
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { readStanza } from './lib.mjs';

const file = new URL('./notes-source.json', import.meta.url);
const source = JSON.parse(readFileSync(file, 'utf8'));
const kept = source.slice(0, 64);
const have = new Set(kept.map((p) => p.pkg));

/** Names that are libraries, language bindings, plugins, data, themes or documentation. */
const NOT_A_PROGRAM =
  /^(lib|python3?-|ruby-|golang-|node-|r-cran|r-bioc|perl|php-|texlive|fonts-|linux-|firmware|haskell|ocaml|elpa-|gir1|emacs-|gnome-shell-ext|hunspell-|myspell|aspell-|hyphen-|mythes|task-|xfonts|tryton|octave-|sugar-|qml-|kde|plasma|trinity|cl-|erlang|rust-|gstreamer|lv2|ladspa|frei0r|vlc-plugin|mpv-|vim-|yorick|xul-ext|webext|gimp-|inkscape-|pd-|puredata-|supercollider-|csound|dssi|audacious-plugin|muse|zynadd)|-(dev|doc|dbg|data|common|l10n|dbgsym|tests?|examples|plugins?|perl|java|dictionary|extra|bin|lang|locale|theme|themes|icons|sounds|samples|nox|gtk|qt|tk|el|core)$/;
const SECTIONS = new Set(['editors', 'video', 'graphics', 'utils', 'sound']);
/** In `utils`, only the compression and archiving tools. */
const COMPRESSION = /\b(compress\w*|decompress\w*|archiv\w*|zip|tar)\b/i;
/** In `sound`, only the players, encoders, converters, editors, rippers and taggers. */
const AUDIO_TOOL = /\b(player|encoder|decoder|converter|editor|ripper|tagger)s?\b/i;

const avail = execFileSync('apt-cache', ['dumpavail'], { encoding: 'utf8', maxBuffer: 1 << 30 });
const candidates = new Set();
for (const stanza of avail.split('\n\n')) {
  const pkg = /^Package: (.+)$/m.exec(stanza)?.[1];
  const section = /^Section: (.+)$/m.exec(stanza)?.[1];
  if (pkg && SECTIONS.has(section) && !NOT_A_PROGRAM.test(pkg) && !have.has(pkg))
    candidates.add(pkg);
}

function show(pkgs) {
  const out = execFileSync(
    'apt-cache',
    ['-o', 'Acquire::Languages=en', 'show', '--no-all-versions', ...pkgs],
    { encoding: 'utf8', maxBuffer: 1 << 28 },
  );
  return out.split(/\n\n+/).filter((s) => s.startsWith('Package: '));
}

const added = [];
const names = [...candidates].sort();
for (let i = 0; i < names.length; i += 200) {
  for (const stanza of show(names.slice(i, i + 200))) {
    const p = readStanza(stanza);
    if (p.body.length < 150) continue; // no real description
    if (/transitional|dummy package|metapackage|meta-package/i.test(`${p.title} ${p.body}`))
      continue;
    if (p.section === 'utils' && !COMPRESSION.test(p.title)) continue;
    if (p.section === 'sound' && !AUDIO_TOOL.test(p.title)) continue;
    added.push(p);
  }
}
// Grouped by section, then by name: deterministic.
added.sort((a, b) => a.section.localeCompare(b.section) || a.pkg.localeCompare(b.pkg));
const out = [...kept, ...added];
writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
const bySection = {};
for (const p of added) bySection[p.section] = (bySection[p.section] ?? 0) + 1;
console.log(
  out.length,
  'packages (64 kept +',
  added.length,
  'added:',
  JSON.stringify(bySection),
  ')',
);
