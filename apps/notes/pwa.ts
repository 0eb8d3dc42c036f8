/**
 * A Vite plugin that writes the service worker after the build. It precaches what the default path
 * needs (the app shell, SQLite's wasm, the default model, the notices: see `sw-files.ts`), so the
 * app loads and searches with the network off after the first visit. ONNX Runtime and the chunk
 * that loads it are not precached: they are cached the first time they are fetched (when the
 * person picks a runtime that needs them), in a cache of their own, and served from it offline;
 * so is SQLite3 Multiple Ciphers' build (when the person first locks the notes).
 * Each cache name carries a hash of its files' names and contents, so a new build replaces the old
 * caches; a person who had fetched ONNX Runtime gets the new build's copies during its install.
 * The first install takes what the first visit already downloaded from the browser's HTTP cache,
 * so a server without ETag or Last-Modified sends each file once (see `precache` in the worker).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

import { splitFiles } from './sw-files.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const WORKER = (
  cacheName: string,
  onDemandCacheName: string,
  urls: string[],
  onDemand: string[],
  cipher: string[],
) => `// Generated at build time by apps/notes/pwa.ts.
const CACHE = ${JSON.stringify(cacheName)};
const ON_DEMAND_CACHE = ${JSON.stringify(onDemandCacheName)};
const PRECACHE = ${JSON.stringify(urls)};
// Fetched only on an ONNX Runtime path or for locked notes, then kept in ON_DEMAND_CACHE for
// offline use.
const ON_DEMAND = ${JSON.stringify(onDemand)};
// Of those, SQLite3 Multiple Ciphers' build (locked notes): kept when the page asks ('keep-cipher'),
// so that notes locked before this worker controlled the page still open offline.
const CIPHER = ${JSON.stringify(cipher)};

self.addEventListener('message', (event) => {
  if (event.data?.type !== 'keep-cipher') return;
  const port = event.ports[0];
  event.waitUntil(
    caches.open(ON_DEMAND_CACHE)
      .then((cache) => Promise.all(CIPHER.map(async (url) => (await cache.match(url)) ?? cache.add(url))))
      .then(() => port?.postMessage('kept'), () => port?.postMessage('failed')),
  );
});

// Someone who fetched ONNX Runtime from an earlier build keeps it offline: the files it had (and
// the chunks that load them, whose names change) are fetched again now, while online.
async function refreshOnDemand() {
  const had = new Set();
  for (const name of await caches.keys()) {
    if (!name.startsWith('anamnesis-notes-onnx-') || name === ON_DEMAND_CACHE) continue;
    for (const request of await (await caches.open(name)).keys()) had.add(new URL(request.url).pathname);
  }
  if (had.size === 0) return;
  const wanted = ON_DEMAND.filter((path) => had.has(path) || path.endsWith('.js'));
  // On failure they are fetched again when first needed.
  await (await caches.open(ON_DEMAND_CACHE)).addAll(wanted).catch(() => undefined);
}

// The precache. On the first install (no earlier build's cache) the page and its worker have
// just downloaded what the app needs: their copies are taken from the browser's HTTP cache
// ('force-cache') instead of the network, where a server that sends no ETag or Last-Modified
// would send every file again. An update asks the network as usual (the HTTP cache may hold the
// earlier build's files under the same names). '/' is the page's own index.html, kept under both
// names, so that it too is downloaded once.
async function precache() {
  const earlier = (await caches.keys()).some(
    (k) => k.startsWith('anamnesis-notes-') && !k.startsWith('anamnesis-notes-onnx-') && k !== CACHE,
  );
  const mode = earlier ? 'default' : 'force-cache';
  const cache = await caches.open(CACHE);
  const root = await fetch(new Request('/', { cache: mode }));
  if (!root.ok) throw new Error('/: ' + root.status);
  await cache.put('/index.html', root.clone());
  await cache.put('/', root);
  const rest = PRECACHE.filter((url) => url !== '/' && url !== '/index.html');
  await cache.addAll(rest.map((url) => new Request(url, { cache: mode })));
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    precache()
      .then(refreshOnDemand)
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('anamnesis-notes-') && k !== CACHE && k !== ON_DEMAND_CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// An on-demand file from the network, kept for offline use once it arrived whole.
async function fetchAndKeep(event, path) {
  const response = await fetch(event.request);
  if (response.status === 200) {
    const copy = response.clone();
    event.waitUntil(caches.open(ON_DEMAND_CACHE).then((cache) => cache.put(path, copy)).catch(() => undefined));
  }
  return response;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.match('/index.html')));
    return;
  }
  event.respondWith(
    caches.match(request, { ignoreSearch: true, ignoreVary: true }).then((hit) => {
      if (hit) return hit;
      return ON_DEMAND.includes(url.pathname) ? fetchAndKeep(event, url.pathname) : fetch(request);
    }),
  );
});
`;

/** A cache name: `prefix` and a hash of the files' paths and contents. */
function cacheName(prefix: string, out: string, rels: string[]): string {
  const hash = createHash('sha256');
  for (const rel of rels) hash.update(rel).update(readFileSync(join(out, rel)));
  return `${prefix}${hash.digest('hex').slice(0, 12)}`;
}

/** Whether a module or asset comes from SQLite3 Multiple Ciphers' build (`@evolu/sqlite-wasm`). */
const fromCipherBuild = (id: string) => /[\\/]@evolu[\\/]sqlite-wasm[\\/]/.test(id);

/**
 * The service worker plugins (build only): `write` (in the app's plugins) writes `sw.js` after the
 * build; `collect` (in the worker's) notes which files of the worker's build are SQLite3 Multiple
 * Ciphers' (its chunk and wasm, loaded only for locked notes), so that they are cached on demand,
 * not precached.
 */
export function serviceWorker(): { write: Plugin; collect: Plugin } {
  let config: ResolvedConfig;
  const cipherFiles = new Set<string>();
  const collect: Plugin = {
    name: 'anamnesis-notes-sw-cipher-files',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const [file, out] of Object.entries(bundle)) {
        const ids = out.type === 'asset' ? out.originalFileNames : Object.keys(out.modules);
        if (ids.some(fromCipherBuild)) cipherFiles.add(file);
      }
    },
  };
  const write: Plugin = {
    name: 'anamnesis-notes-sw',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const out = resolve(config.root, config.build.outDir);
      const rels = files(out).map((f) => relative(out, f).split(sep).join('/'));
      const { precache, onDemand } = splitFiles(rels, cipherFiles);
      const urls = precache.map((rel) => (rel === 'index.html' ? '/index.html' : `/${rel}`));
      urls.push('/');
      writeFileSync(
        join(out, 'sw.js'),
        WORKER(
          cacheName('anamnesis-notes-', out, precache),
          cacheName('anamnesis-notes-onnx-', out, onDemand),
          urls,
          onDemand.map((rel) => `/${rel}`),
          [...cipherFiles].sort().map((rel) => `/${rel}`),
        ),
      );
    },
  };
  return { write, collect };
}
