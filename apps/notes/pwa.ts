/**
 * A Vite plugin that writes the service worker after the build: it precaches every file of the
 * output folder (the app shell, the wasm files, the default model), so the app loads and searches
 * with the network off after the first visit. The cache name carries a hash of the file list and
 * contents, so a new build replaces the old cache.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import type { Plugin, ResolvedConfig } from 'vite';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const WORKER = (
  cacheName: string,
  urls: string[],
) => `// Generated at build time by apps/notes/pwa.ts.
const CACHE = ${JSON.stringify(cacheName)};
const PRECACHE = ${JSON.stringify(urls)};

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('anamnesis-notes-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    event.respondWith(fetch(request).catch(() => caches.match('/index.html')));
    return;
  }
  event.respondWith(caches.match(request, { ignoreSearch: true, ignoreVary: true }).then((hit) => hit || fetch(request)));
});
`;

/** The service worker plugin (build only). */
export function serviceWorker(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'anamnesis-notes-sw',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    closeBundle() {
      const out = resolve(config.root, config.build.outDir);
      // onnxruntime-web's own `new URL(…wasm, import.meta.url)` makes Vite emit a hashed copy of its
      // 27 MB wasm under assets/; the app loads the copy under /ort/ (wasmPaths), so only that one
      // is precached.
      const all = files(out).filter(
        (f) => !f.endsWith(`${sep}sw.js`) && !/assets[\\/]ort-wasm[^/\\]*\.wasm$/.test(f),
      );
      const hash = createHash('sha256');
      const urls = all.map((f) => {
        const rel = relative(out, f).split(sep).join('/');
        hash.update(rel).update(readFileSync(f));
        return rel === 'index.html' ? '/index.html' : `/${rel}`;
      });
      urls.push('/');
      writeFileSync(
        join(out, 'sw.js'),
        WORKER(`anamnesis-notes-${hash.digest('hex').slice(0, 12)}`, urls),
      );
    },
  };
}
