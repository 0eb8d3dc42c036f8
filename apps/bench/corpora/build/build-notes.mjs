// Builds ../notes/corpus.json from notes-source.json (Debian package descriptions, re-extracted by
// extract-notes.mjs). Run: node apps/bench/corpora/build/build-notes.mjs
import { readFileSync } from 'node:fs';

import { createdAt, fresh, writeCorpus } from './lib.mjs';

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
// These 60, written before issue 42, are all `dev` (see lib.mjs).
const old = [
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

// Added for issue 42, after the notes grew to ~1,100 (many editors, image tools, compressors, video
// and audio players, so that a question has near neighbours): written by hand after reading the
// target's description and grepping the others for the same feature; `evidence` lists every note
// that answers. Fresh split: every third from the second (lib.mjs, `fresh`).
const added = fresh([
  q('a console hex editor that can compare two binary files', ['dhex']),
  q('edit the bytes of a firmware file using vi key bindings', ['bvi']),
  q('compare more than two versions of a text file side by side in a window and merge them', [
    'diffuse',
  ]),
  q('the old line-by-line editor from early Unix', ['ed']),
  q('editor like vim where you select text first and then act on it', ['kakoune']),
  q('a terminal text editor meant as an easier successor to nano', ['micro']),
  q('the modernised fork of vim where plugins can be written in any language', ['neovim']),
  q(
    'apps for writing without distractions, full screen',
    ['focuswriter', 'ghostwriter', 'manuskript'],
    T,
  ),
  q('markdown editor with live HTML preview and an outline', ['ghostwriter']),
  q('notes app that keeps pages in a tree, with rich text and code highlighting', ['cherrytree']),
  q('mind mapping software', ['freeplane', 'treesheets'], T),
  q('edit LilyPond scores with a text editor that previews the music', ['frescobaldi']),
  q('write LaTeX like in a word processor, without typing the markup', ['lyx']),
  q('how do I edit an ebook in EPUB format?', ['sigil', 'pageedit']),
  q('an all-in-one LaTeX IDE with spell checking and code completion', ['texstudio']),
  q('translation memory software with fuzzy matches and glossaries for translators', ['omegat']),
  q('write a first draft in a plain word processor inside the terminal', ['wordgrinder-ncurses']),
  q('poke at binary file formats by describing their structures in a little language', ['poke']),
  q('something like Notepad++ for Linux', ['notepadqq']),
  q('index my source code so the editor can jump to where a function is defined', [
    'universal-ctags',
    'exuberant-ctags',
    'arduino-ctags',
  ]),
  q('plan a model train track layout on the computer', ['xtrkcad']),
  q('one app that is part spreadsheet, part outliner and part mind map', ['treesheets']),
  q(
    'hex editors',
    ['beav', 'bless', 'bvi', 'dhex', 'jeex', 'tweak', 'hexedit', 'ncurses-hexedit'],
    T,
  ),
  q('fix the contrast and colour balance of photos automatically from the shell', ['aaphoto']),
  q('render old BBS ANSI art files as PNG pictures', ['ansilove']),
  q('turn an animated PNG into a GIF', ['apng2gif']),
  q('generate barcodes for product labels', ['barcode', 'zint', 'iec16022'], T),
  q('3D modelling, animation and rendering suite', ['blender']),
  q('record part of my desktop as an animated GIF for a bug report', ['byzanz']),
  q('convert SVG drawings to PDF or PNG on the command line', ['cairosvg']),
  q('a graphical tool to resize and convert hundreds of pictures at once', ['converseen']),
  q('develop camera raw files, like Lightroom', ['darktable', 'rawtherapee'], T),
  q('draw flowcharts, network diagrams and UML class diagrams, a Visio replacement', ['dia']),
  q('KDE program to import, tag and organise my photo library', ['digikam']),
  q('turn diagrams drawn with dashes and pipes in a text file into real images', ['ditaa']),
  q('open a scanned book in .djvu format', ['djview4']),
  q('blend bracketed shots at different exposures into one photo without making an HDR first', [
    'enfuse',
  ]),
  q('rotate camera JPEGs without quality loss according to their orientation tag, many at once', [
    'exiftran',
  ]),
  q('a fast keyboard-driven image viewer that also does slideshows and montages', ['feh']),
  q('find photos in my collection that look alike or are duplicates', ['findimagedupes']),
  q(
    'screenshot tools that let me draw arrows and annotate before saving',
    ['flameshot', 'ksnip', 'shutter'],
    T,
  ),
  q('add text lines to an existing PostScript or PDF file, e.g. to fill in a form', ['flpsed']),
  q('make an animated GIF smaller and edit its frames', ['gifsicle']),
  q('build 3D pixel art out of cubes', ['goxel']),
  q(
    'grab a colour from anywhere on the screen and save palettes',
    ['gpick', 'color-picker', 'deepin-picker', 'kcolorchooser'],
    T,
  ),
  q('write coordinates from my GPS track log into my photos', ['gpscorrelate', 'gpscorrelate-gui']),
  q("Google's JPEG encoder that makes files a fifth smaller at the same quality", ['guetzli']),
  q('stitch overlapping photos into a panorama', ['hugin', 'hugin-tools']),
  q('pull the icon out of a Windows .exe file', ['icoutils']),
  q('losslessly shrink JPEG files by rewriting their Huffman tables', ['jpegoptim']),
  q('generate a static web photo album from a folder of pictures', ['lazygal']),
  q('make a scanned PDF searchable by adding a text layer', ['ocrmypdf']),
  q('design 3D printable parts by writing code instead of clicking', ['openscad']),
  q('reorder, rotate, split and merge PDF pages with a GUI', ['pdfarranger']),
  q('show my PDF slides on the projector and speaker notes plus the next slide on my laptop', [
    'pdf-presenter-console',
  ]),
  q('draw sequence diagrams from a plain text description', ['plantuml']),
  q('check whether a PNG file is corrupt', ['pngcheck']),
  q('shrink PNGs with transparency by reducing them to a 256-colour palette', [
    'pngquant',
    'pngnq',
  ]),
  q('print a huge poster from one image on many A4 sheets', ['posterazor']),
  q('convert a scanned logo bitmap into smooth vector outlines', ['potrace']),
  q('raytracer that renders photorealistic scenes from a scene file', ['povray']),
  q('get back the pictures from a camera memory card I accidentally formatted', ['recoverjpeg']),
  q('desktop publishing program for brochures and newsletters, like InDesign', ['scribus']),
  q('clean up scanned book pages before making a PDF: remove dark edges, straighten', ['unpaper']),
  q('read the number shown on a digital display from a photo', ['ssocr']),
  q('hide a secret message inside a picture', ['stegosuite', 'stepic'], T),
  q('plan the furniture of my flat and see it in 3D', ['sweethome3d-furniture']),
  q('a drawing program for small kids with sound effects', ['tuxpaint']),
  q('draft sewing patterns for clothes from body measurements', ['valentina']),
  q('change my desktop background automatically with photos from Unsplash or Flickr', ['variety']),
  q("Google's image format that beats JPEG for web photos", ['webp']),
  q('zoom into the Mandelbrot set in real time', ['xaos']),
  q('render a picture of the Earth or other planets for my desktop', ['xplanet']),
  q('read a QR code from an image or the webcam', ['zbar-tools']),
  q('rip audio CDs', ['abcde', 'asunder', 'ripit', 'ripperx', 'whipper', 'crip', 'pacpl'], T),
  q('CD ripper that checks my rips against the AccurateRip database', ['whipper']),
  q(
    'fix the tags of the music files I already have by looking them up on MusicBrainz',
    ['picard', 'beets', 'clementine', 'flactag', 'puddletag', 'strawberry'],
    T,
  ),
  q('control whatever media player is playing from a keyboard shortcut', ['playerctl']),
  q('listen to Pandora internet radio from the terminal', ['pianobar']),
  q('a player for transcribing interviews that slows down speech and rewinds a bit on pause', [
    'parlatype',
  ]),
  q('create and edit SoundFont instruments', ['polyphone', 'swami'], T),
  q('play old tracker module music (MOD, XM, IT)', ['mikmod', 'xmp', 'openmpt123'], T),
  q('stream music from my iPhone to the Linux box as if it were an AirPlay speaker', [
    'shairport-sync',
  ]),
  q('slow a song down to practise it without changing its key', ['stretchplayer', 'yatm'], T),
  q('edit the ID3 tags of my MP3s in a spreadsheet-like window, like Mp3tag on Windows', [
    'puddletag',
  ]),
  q('make 7z archives with a very high compression ratio', ['7zip', 'p7zip-full']),
  q('unpack any kind of archive with one command that does not spill files all over the folder', [
    'dtrx',
    'atool',
  ]),
  q('open a zip or tar file as if it were a folder', ['fuse-zip', 'archivemount', 'avfs'], T),
  q('I forgot the password of a zip file, can I recover it?', ['fcrackzip']),
  q('jump to the middle of a huge .gz log without decompressing it all', ['gztool']),
  q('turn a directory into a single self-installing .run shell script', ['makeself']),
  q('repair a download split into many parts when some pieces are missing', ['parchive']),
  q('compress tarballs with xz using all CPU cores and list them fast', ['pixz']),
  q('gzip-compatible compressor that is much slower but squeezes a few percent more', ['zopfli']),
  q('Zstandard command line compressor', ['zstd', 'zst']),
  q('grep and diff files even when some are gzipped or xz-compressed', ['zutils']),
  q('extract an old .lzh archive', ['lhasa', 'jlha-utils']),
  q('extremely fast compression, gigabytes per second when decompressing', ['lz4']),
  q('compress very large files with the best ratio using long-range redundancy', ['lrzip']),
  q('time and style subtitles for anime fansubs', ['aegisub']),
  q('write iTunes-style tags and cover art into an .m4a or .mp4 file', ['atomicparsley']),
  q('burn my videos to a DVD that plays in a living room player, with menus', ['devede']),
  q('copy the titles of a DVD to my disk from the shell', ['dvdbackup']),
  q('show preview thumbnails of video files in the file manager', ['ffmpegthumbnailer']),
  q('cut the adverts out of a TV recording from my DVB card', ['dvbcut']),
  q('non-linear video editors', ['flowblade', 'olive-editor'], T),
  q('convert a DVD to a video that plays on my phone, with ready-made presets', [
    'handbrake',
    'handbrake-cli',
  ]),
  q('add subtitle and audio tracks to an MKV file', ['mkvtoolnix', 'mkvtoolnix-gui']),
  q('turn a webcam into a security camera that records when something moves', ['motion']),
  q('stream my gameplay live to a streaming site and record it at the same time', ['obs-studio']),
  q('make a stop-motion film from camera pictures', ['qstopmotion']),
  q(
    'record my screen into a video file',
    ['simplescreenrecorder', 'recordmydesktop', 'kazam', 'vokoscreen-ng', 'obs-studio', 'byzanz'],
    T,
  ),
  q('watch a Twitch stream in VLC instead of the heavy website', ['streamlink']),
  q('download subtitles for my films automatically from a cron job', ['subliminal']),
  q('HEVC encoder', ['x265']),
  q('encode video to AV1', ['rav1e', 'svt-av1', 'aom-tools'], T),
  q('watch YouTube without a browser', ['minitube', 'smtube'], T),
  q('watch or download shows of ARD and ZDF', ['mediathekview']),
  q('stream a USB camera as MJPEG to the browser with very low latency', ['ustreamer']),
  q('home theatre media center software for the TV, formerly XBMC', ['kodi']),
  q('create a virtual video device that other programs see as a webcam', ['v4l2loopback-utils']),
]);

const questions = [...old, ...added];

writeCorpus(
  'notes',
  'Short titled notes: Debian package descriptions (bookworm), stored as the notes app stores a note',
  memories,
  questions,
);
