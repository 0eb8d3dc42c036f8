// Builds ../notes/corpus.json from notes-source.json (Debian package descriptions, re-extracted by
// extract-notes.mjs). Run: node apps/bench/corpora/build/build-notes.mjs
import { readFileSync } from 'node:fs';

import { createdAt, writeCorpus } from './lib.mjs';

const source = JSON.parse(readFileSync(new URL('./notes-source.json', import.meta.url), 'utf8'));

// These notes get a "Name: description" title (a colon in the title, as people title notes), to
// check that the engine does not read the part before the colon as a chat speaker.
const COLON = new Set([
  'tmux',
  'jq',
  'ripgrep',
  'ncdu',
  'htop',
  'bat',
  'pass',
  'units',
  'sox',
  'fzf',
  'lame',
  'tree',
  'mtr-tiny',
]);
const NAME = { 'mtr-tiny': 'mtr', ripgrep: 'ripgrep', jq: 'jq' };

const memories = source.map((p, i) => {
  const id = `n-${p.pkg}`;
  const title = COLON.has(p.pkg) ? `${NAME[p.pkg] ?? p.pkg}: ${p.title}` : p.title;
  return {
    id,
    text: `${title}\n\n${p.body}`,
    session: id,
    kind: 'note',
    meta: { title },
    createdAt: createdAt(i, source.length),
  };
});

const K = 'known-item';
const T = 'topical';
const q = (text, evidence, type = K) => ({ text, evidence: evidence.map((e) => `n-${e}`), type });

// Written by hand after reading every note; the asker does not remember the notes' exact words.
const questions = [
  q(
    'which program lets me run several shells inside one terminal window and reattach to them later?',
    ['tmux'],
  ),
  q('that tool for slicing and reshaping the JSON an API sends back, from the shell', ['jq']),
  q('tools for backing up my files', ['borgbackup', 'restic', 'rsync'], T),
  q('password managers I wrote down', ['keepassxc', 'pass'], T),
  q('how can I see interactively which folders take up the most room on my drive?', ['ncdu']),
  q('the tool that shows packet loss and latency at every hop on the way to a server', [
    'mtr-tiny',
  ]),
  q('how do I test the throughput between two of my machines?', ['iperf3']),
  q('something to capture and look at the packets going through my network card', ['tcpdump']),
  q('find out which machines on the LAN are online and which services they expose', ['nmap']),
  q('what was the fast, simple VPN that lives in the Linux kernel?', ['wireguard-tools']),
  q('logging into a remote box securely and copying files to it', ['openssh-client']),
  q('how do I encrypt a file and put a signature on it with my own key?', ['gnupg']),
  q('convert a markdown document into a Word file or an EPUB', ['pandoc']),
  q('draw a picture of a network of nodes and edges automatically', ['graphviz']),
  q('make charts of numbers from a data file without a GUI app', ['gnuplot']),
  q('free replacement for Photoshop to retouch my photos', ['gimp']),
  q('resize and rotate a whole batch of pictures from a shell script', ['imagemagick']),
  q('what should I use to design a logo or icons as SVG?', ['inkscape']),
  q('record a podcast and cut the audio on several tracks', ['audacity']),
  q('change a video from one container or codec to another', ['ffmpeg', 'vlc']),
  q('media player that also handles DVDs and can stream to other computers on the network', [
    'vlc',
  ]),
  q('download a whole site for offline reading, and keep going when the connection drops', [
    'wget',
  ]),
  q('send an HTTP POST with cookies and a login from the terminal', ['curl']),
  q('search for a word across all the code in a repo quickly, skipping what git ignores', [
    'ripgrep',
  ]),
  q('locate files by name without remembering the awkward flags of the classic command', [
    'fd-find',
  ]),
  q('pick an item from my shell history by typing a few letters of it', ['fzf']),
  q('print the folder hierarchy nested like an outline', ['tree']),
  q('see what is running and kill a process without looking up its number', ['htop']),
  q('version control with branches that works offline, the one Linux uses', ['git']),
  q('editors that run in the terminal', ['vim', 'nano'], T),
  q('an easy editor for beginners in the console that has undo and syntax colours', ['nano']),
  q('a database I can use from my program with no server process running', ['sqlite3']),
  q('relational databases I can query with SQL', ['postgresql', 'sqlite3'], T),
  q('what do I put in front of my app as a reverse proxy?', ['nginx']),
  q('organise my ebooks and push them to my Kindle', ['calibre']),
  q('a lightweight PDF reader driven by the keyboard like vim', ['zathura']),
  q('which word processor opens .docx files, the Microsoft Office substitute?', [
    'libreoffice-writer',
  ]),
  q('email programs', ['thunderbird', 'mutt'], T),
  q('make the computer read text out loud', ['espeak-ng']),
  q('add effects to a sound file and change its format on the command line', ['sox']),
  q('the encoder for turning WAV recordings into MP3s', ['lame']),
  q('compress my music without losing any quality', ['flac']),
  q('remove the camera model and GPS data stored inside my photos', ['libimage-exiftool-perl']),
  q('put a password on a PDF or make it load faster on the web', ['qpdf']),
  q('print a PDF on an old printer that does not understand PostScript', ['ghostscript']),
  q('get the text out of a scanned page image', ['tesseract-ocr']),
  q('convert feet to metres or other measurements in the terminal', ['units']),
  q('a calculator with as many digits as I want, for scripts', ['bc']),
  q('silly fun things for the terminal', ['cowsay', 'fortune-mod'], T),
  q('how do I catch mistakes in my bash scripts before they bite?', ['shellcheck']),
  q('check the spelling of a document, also for languages like Hungarian', ['hunspell']),
  q('software to keep track of my personal finances', ['gnucash', 'ledger'], T),
  q('bookkeeping where the accounts are just a text file', ['ledger']),
  q('to-do list managers', ['taskwarrior', 'calcurse'], T),
  q('calendars that remind me of appointments', ['remind', 'calcurse', 'thunderbird'], T),
  q('follow blogs and podcasts from a terminal', ['newsboat']),
  q('an IRC client that can be scripted in Python', ['weechat']),
  q('show source files with colours instead of plain cat', ['bat']),
  q('tools for diagnosing network problems', ['mtr-tiny', 'tcpdump', 'iperf3', 'nmap'], T),
  q('audio conversion and editing programs', ['audacity', 'sox', 'ffmpeg', 'lame', 'flac'], T),
];

writeCorpus(
  'notes',
  'Short titled notes: Debian package descriptions (bookworm), stored as the notes app stores a note',
  memories,
  questions,
);
