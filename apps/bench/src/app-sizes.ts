/**
 * The sizes `bench:size` reports of a built app: its files on disk, each as a static server sends
 * it (gzip and brotli where a typical server compresses, see `static-server.ts`), the files its
 * service worker precaches (read from the generated `sw.js`), and sums over a set of them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { encode } from './static-server.ts';

/** A file of a build: its path under the output folder (`/`-separated) and its sizes in bytes. */
export interface FileSize {
  path: string;
  raw: number;
  gzip: number;
  br: number;
}

/** Sums of a set of files, in bytes. */
export interface SizeSum {
  files: number;
  raw: number;
  gzip: number;
  br: number;
}

/** Every file under `dir` with its sizes (compressed sizes computed once per file). */
export function fileSizes(dir: string): FileSize[] {
  const out: FileSize[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) {
        const { raw, gzip, br } = encode(path);
        out.push({
          path: relative(dir, path).split(sep).join('/'),
          raw: raw.length,
          gzip: gzip.length,
          br: br.length,
        });
      }
    }
  };
  walk(dir);
  return out.sort((a, b) => a.path.localeCompare(b.path));
}

/** The sums over the files whose path `pick` accepts (all by default). */
export function sum(files: readonly FileSize[], pick: (path: string) => boolean = () => true) {
  const total: SizeSum = { files: 0, raw: 0, gzip: 0, br: 0 };
  for (const f of files) {
    if (!pick(f.path)) continue;
    total.files++;
    total.raw += f.raw;
    total.gzip += f.gzip;
    total.br += f.br;
  }
  return total;
}

/**
 * The paths (relative to the output folder) that the notes app's service worker precaches: its
 * `const PRECACHE = [...]` line (`/` is `index.html`). Empty when there is no service worker.
 */
export function precached(dist: string): string[] {
  let sw: string;
  try {
    sw = readFileSync(join(dist, 'sw.js'), 'utf8');
  } catch {
    return [];
  }
  const match = /const PRECACHE = (\[.*?\]);/s.exec(sw);
  if (!match) throw new Error(`${dist}/sw.js has no PRECACHE list`);
  const urls = JSON.parse(match[1]!) as string[];
  return [...new Set(urls.map((u) => (u === '/' ? 'index.html' : u.replace(/^\//, ''))))];
}

/** Bytes of a file (0 when it is missing). */
export function bytesOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
