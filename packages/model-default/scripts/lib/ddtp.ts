/**
 * The training data of the multilingual model: Debian's package descriptions (bookworm `main`), in
 * English and as translated by the Debian Description Translation Project (DDTP), plus the
 * archive's `Packages` index (for each binary package's source package).
 *
 * apt fetches them: `apt-get -o Acquire::Languages=en,de,fr,es,ru,ja,zh_CN update` writes
 * `/var/lib/apt/lists/deb.debian.org_debian_dists_bookworm_main_i18n_Translation-<lang>.lz4`, and
 * `/usr/lib/apt/apt-helper cat-file` decompresses any of apt's lists. The decompressed files are
 * copied into a cache folder and checked against the sha256 pinned here, which are the ones the
 * suite's signed `InRelease` lists for the uncompressed files (so a file that matches is the one
 * Debian published). A point release of bookworm may change a file: the pins then fail, and a
 * rebuild needs the pinned files (snapshot.debian.org keeps every published version) or new pins
 * and a new model.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The languages the model is trained for, as DDTP names them (English first). */
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'ru', 'ja', 'zh_CN'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Where the files come from, and the sha256 of each decompressed file (from `InRelease`). */
export const DDTP_SOURCE = {
  archive: 'http://deb.debian.org/debian',
  suite: 'bookworm',
  component: 'main',
  /** `Date:` of the `InRelease` whose hashes are pinned. */
  release_date: 'Sat, 11 Jul 2026 10:16:37 UTC',
  files: {
    'main/i18n/Translation-en': {
      bytes: 32_699_363,
      sha256: '62f59c3cdca9786e4f7adf9002f9f5729a684adcb4667e58e448dec9b5a46c7f',
    },
    'main/i18n/Translation-de': {
      bytes: 8_017_516,
      sha256: 'adac331fc51f9a00c1b4120b4ac87423be2b1f1615d4f288c7cbc2d5258c0650',
    },
    'main/i18n/Translation-fr': {
      bytes: 13_260_065,
      sha256: '1b5ce81d2dac68fb27997899d9e092b8281f984baa658c22139d8f2640aec6cc',
    },
    'main/i18n/Translation-es': {
      bytes: 1_261_022,
      sha256: '891b4912747533755c5caca42c5dc2365fc7a8b73af88c44485b61ce7fddb740',
    },
    'main/i18n/Translation-ru': {
      bytes: 2_847_138,
      sha256: '150a6c5b969a2856ffb16908306ac2328ad61131df343a7e6418ebdc1a86c9bd',
    },
    'main/i18n/Translation-ja': {
      bytes: 4_237_414,
      sha256: '642792836c58facc19a735181fc1bc53ac211fc082ff141377fc6be2d2498259',
    },
    'main/i18n/Translation-zh_CN': {
      bytes: 488_970,
      sha256: '53d04c0b9a75c9519afc6a1919af6d6cfd9012bb7a18bf110a169fd67c6cc4ef',
    },
    'main/binary-amd64/Packages': {
      bytes: 50_060_337,
      sha256: '515e692f2c4121c6fcec444ef100cc18f79a991910615f3a88c8b7becfc94d2f',
    },
  },
} as const;

export type DdtpFile = keyof typeof DDTP_SOURCE.files;

/** The index file of a language's descriptions. */
export const translationFile = (lang: Language): DdtpFile => `main/i18n/Translation-${lang}`;

const APT_LISTS = '/var/lib/apt/lists';
const APT_HELPER = '/usr/lib/apt/apt-helper';

/** apt's name for a list file: `deb.debian.org_debian_dists_bookworm_main_i18n_Translation-de.lz4`. */
function aptListName(file: DdtpFile): string {
  const host = DDTP_SOURCE.archive.replace(/^https?:\/\//, '').replace(/\//g, '_');
  // apt escapes `_` inside a path component as %5f (Translation-zh_CN → Translation-zh%5fCN)
  const path = file.replace(/_/g, '%5f').replace(/\//g, '_');
  return `${host}_dists_${DDTP_SOURCE.suite}_${path}.lz4`;
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * Returns the decompressed bytes of `file`, from `<cacheDir>/ddtp/` when it holds the pinned
 * version, else from apt's lists (running `apt-get update` with the languages once when a list is
 * missing); throws when what apt has is not the pinned version.
 */
export function fetchDdtpFile(cacheDir: string, file: DdtpFile, log: (m: string) => void): Buffer {
  const pin = DDTP_SOURCE.files[file];
  const dir = join(cacheDir, 'ddtp');
  const cached = join(dir, file.replace(/\//g, '_'));
  if (existsSync(cached)) {
    const bytes = readFileSync(cached);
    if (sha256(bytes) === pin.sha256) return bytes;
    log(`cached ${file} does not match its pinned sha256; reading apt's lists again`);
  }
  const list = join(APT_LISTS, aptListName(file));
  if (!existsSync(list)) {
    log(`no ${list}: running apt-get update with Acquire::Languages=${LANGUAGES.join(',')}`);
    execFileSync('apt-get', ['-o', `Acquire::Languages=${LANGUAGES.join(',')}`, 'update'], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  const bytes = execFileSync(APT_HELPER, ['cat-file', list], { maxBuffer: 1 << 30 });
  const got = sha256(bytes);
  if (got !== pin.sha256) {
    throw new Error(
      `${file}: apt has a version with sha256 ${got}, not the pinned ${pin.sha256} ` +
        `(${DDTP_SOURCE.suite} of ${DDTP_SOURCE.release_date}); fetch the pinned one from ` +
        `snapshot.debian.org or re-pin and retrain`,
    );
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(`${cached}.tmp`, bytes);
  renameSync(`${cached}.tmp`, cached);
  return bytes;
}

/** One package's description in one language. */
export interface Description {
  package: string;
  /** `Description-md5`: the md5 of the English description, the key translations share. */
  md5: string;
  /** The one-line short description (the synopsis). */
  short: string;
  /** The long description as running text (paragraphs joined; see {@link parseTranslation}). */
  long: string;
}

/**
 * CJK punctuation, kana, ideographs and fullwidth forms: a line break between two of them joins
 * without a space.
 */
const CJK = /[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

/**
 * Parses a `Translation-<lang>` file: stanzas of `Package`, `Description-md5` and
 * `Description-<lang>` (the short description on the field's line, the long one on the indented
 * lines after it; ` .` is a paragraph break). Lines are joined with a space (without one
 * between two CJK characters, which Japanese and Chinese wrap without spaces), paragraphs with a
 * line feed, and runs of spaces collapsed.
 */
export function parseTranslation(text: string, lang: Language): Description[] {
  const out: Description[] = [];
  const field = `Description-${lang}: `;
  for (const stanza of text.split('\n\n')) {
    let pkg = '';
    let md5 = '';
    let short = '';
    const paragraphs: string[] = [];
    let current = '';
    let inDescription = false;
    for (const line of stanza.split('\n')) {
      if (line.startsWith('Package: ')) pkg = line.slice(9).trim();
      else if (line.startsWith('Description-md5: ')) md5 = line.slice(17).trim();
      else if (line.startsWith(field)) {
        short = line.slice(field.length).trim();
        inDescription = true;
      } else if (inDescription && line.startsWith(' ')) {
        const body = line.slice(1).trim();
        if (body === '.') {
          if (current) paragraphs.push(current);
          current = '';
        } else if (current === '') current = body;
        else {
          const joint = CJK.test(current.at(-1)!) && CJK.test(body[0]!) ? '' : ' ';
          current += joint + body;
        }
      } else inDescription = false;
    }
    if (current) paragraphs.push(current);
    if (pkg && md5 && short) {
      out.push({
        package: pkg,
        md5,
        short: short.replace(/\s+/g, ' '),
        long: paragraphs.map((p) => p.replace(/\s+/g, ' ')).join('\n'),
      });
    }
  }
  return out;
}

/** Binary package → source package, from a `Packages` index (a package without `Source:` is its own). */
export function parseSources(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const stanza of text.split('\n\n')) {
    const pkg = /^Package: (\S+)/m.exec(stanza)?.[1];
    if (!pkg) continue;
    const source = /^Source: (\S+)/m.exec(stanza)?.[1] ?? pkg;
    if (!out.has(pkg)) out.set(pkg, source);
  }
  return out;
}

/** sha256 of bytes, hex. */
export { sha256 };
