/**
 * `@anamnesis/client/vite`: the one line a Vite app needs (`plugins: [anamnesis()]`).
 *
 * - Serves (dev server) and emits (build; `vite preview` serves the emitted copies) the default
 *   model's files under `/models/` (or another model root's: `modelRoot`, e.g.
 *   {@link ENGLISH_MODEL_ROOT}), and, only for an app that asks for them (`ortBuilds`), ONNX
 *   Runtime's wasm files under `/ort/`, from the exact onnxruntime-web version that
 *   `@huggingface/transformers` depends on (the one the engine loads), so nothing comes from a
 *   CDN. The default model runs in plain JavaScript on `'wasm'` and `'auto'`: the runtime's files
 *   are only fetched for other models, `device: 'webgpu'` or `runtime: 'onnx'`, so by default none
 *   is emitted (they are 40 MB).
 * - A missing file under those paths is a 404, never the app's `index.html` (transformers.js
 *   would cache that page as a model file).
 * - With `encryption: true`, points the engine's `#cipher-sqlite` at `@evolu/sqlite-wasm` (SQLite3
 *   Multiple Ciphers), for encrypted stores.
 * - Keeps `@sqlite.org/sqlite-wasm` (and this package, whose worker is found through
 *   `new URL('./worker.js', import.meta.url)`) out of dependency pre-bundling, so that
 *   `sqlite3.wasm` is served next to its module in dev and emitted as an asset at build; module
 *   workers are bundled as ES modules.
 *
 * Node only (it reads files); the exports below are also used by the repo's test harness.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import { dirname, join, normalize, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  defaultClientConditions,
  defaultServerConditions,
  type Plugin,
  type ResolvedConfig,
} from 'vite';

import { AnamnesisError } from '@anamnesis/errors';

const require = createRequire(import.meta.url);

/** `@anamnesis/model-default`'s folder. */
const MODEL_PACKAGE = dirname(require.resolve('@anamnesis/model-default/package.json'));

/**
 * Folder holding `<model id>/…` of the default model (`@anamnesis/model-default`'s `model/`:
 * `anamnesis/static-multi-64d`, multilingual, about 5.5 MB): what the plugin serves by default.
 */
export const MODEL_ROOT = join(MODEL_PACKAGE, 'model');

/**
 * Folder holding `<model id>/…` of the English model (`@anamnesis/model-default`'s `english/`:
 * `anamnesis/glove-100d-sif`, English only, about 6.2 MB). An app that opens its stores with
 * `model: ENGLISH_MODEL_ID` serves it instead of the default one:
 * `anamnesis({ modelRoot: ENGLISH_MODEL_ROOT })`, so the default model is neither served nor
 * emitted (nor precached by an app that precaches what the plugin emits).
 */
export const ENGLISH_MODEL_ROOT = join(MODEL_PACKAGE, 'english');

/**
 * onnxruntime-web's `dist/` folder: the one the engine's browser code imports, so that the wasm
 * files match the JS that loads them. From an installed package that is the engine's
 * `onnxruntime-web` (its peer dependency, which this package provides); in the repo's sources,
 * the one that the engine's `@huggingface/transformers` depends on. Throws when its version is
 * not the one the engine pins.
 */
export const ORT_DIST = (() => {
  const enginePackage = require.resolve('@anamnesis/engine/package.json');
  const fromEngine = createRequire(enginePackage);
  const wasm = 'onnxruntime-web/ort-wasm-simd-threaded.asyncify.wasm';
  let file: string;
  try {
    file = fromEngine.resolve(wasm);
  } catch {
    file = createRequire(fromEngine.resolve('@huggingface/transformers')).resolve(wasm);
  }
  const dist = dirname(file);
  const pkg = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  const wanted = (
    JSON.parse(readFileSync(enginePackage, 'utf8')) as {
      peerDependencies: Record<string, string>;
    }
  ).peerDependencies['onnxruntime-web'];
  if (wanted !== pkg.version) {
    throw new Error(`onnxruntime-web ${pkg.version} found, @anamnesis/engine wants ${wanted}`);
  }
  return dist;
})();

/**
 * The export condition that selects this repo's TypeScript sources (`package.json` `exports`).
 * Only when the plugin itself runs from its sources (inside the anamnesis repo) does it add the
 * condition to the app's build, so that the worker and the engine come from the same sources;
 * from an installed package it adds nothing.
 */
const SOURCE_CONDITION = '@anamnesis/source';
const FROM_SOURCES = import.meta.url.endsWith('.ts');

/**
 * What the engine's `#transformers` import becomes in a build without ONNX Runtime (see
 * `no-onnx-runtime.ts`): the compiled file next to this one, or its source in the repo.
 */
const NO_ONNX_RUNTIME = fileURLToPath(
  new URL(FROM_SOURCES ? './no-onnx-runtime.ts' : './no-onnx-runtime.js', import.meta.url),
);

/**
 * SQLite3 Multiple Ciphers' build of SQLite WASM, what the engine's `#cipher-sqlite` becomes with
 * `encryption: true` (resolved from the engine, whose optional peer dependency it is).
 */
const CIPHER_SQLITE = '@evolu/sqlite-wasm';

function sha256(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

let plainWasmHash: string | undefined;
/** SHA-256 of the engine's SQLite wasm (`@sqlite.org/sqlite-wasm`'s `sqlite3.wasm`). */
function plainSqliteWasmHash(): string {
  plainWasmHash ??= sha256(
    readFileSync(
      createRequire(require.resolve('@anamnesis/engine/package.json')).resolve(
        '@sqlite.org/sqlite-wasm/sqlite3.wasm',
      ),
    ),
  );
  return plainWasmHash;
}

/** ONNX Runtime builds: `asyncify` (wasm and WebGPU, 27 MB) and `plain` (wasm only, 14 MB). */
export const ORT_BUILDS = {
  /** wasm and WebGPU (27 MB). */
  asyncify: ['ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm'],
  /** wasm only (14 MB). */
  plain: ['ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'],
} as const;

/** Every ONNX Runtime file the client's worker may load. */
export const ORT_FILES: readonly string[] = [...ORT_BUILDS.asyncify, ...ORT_BUILDS.plain];

const TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.onnx': 'application/octet-stream',
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript',
  '.js': 'text/javascript',
};

/** The Content-Type of a served file. */
export function contentType(path: string): string {
  const dot = path.lastIndexOf('.');
  return TYPES[path.slice(dot)] ?? 'application/octet-stream';
}

/** Resolves `rel` (URL-encoded) inside `root`, or undefined when it escapes `root` or is not a file. */
export function fileIn(root: string, rel: string): string | undefined {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rel);
  } catch {
    return undefined;
  }
  const base = resolve(root);
  const path = normalize(join(base, decoded));
  if (!path.startsWith(base + sep)) return undefined;
  return existsSync(path) && statSync(path).isFile() ? path : undefined;
}

/** Sends a file with its type and length. */
export function sendFile(res: ServerResponse, path: string, cache: string): void {
  res.statusCode = 200;
  res.setHeader('Content-Type', contentType(path));
  res.setHeader('Content-Length', statSync(path).size);
  res.setHeader('Cache-Control', cache);
  createReadStream(path).pipe(res);
}

/** A plain 404 (never cached). */
export function notFound(res: ServerResponse, what: string): void {
  res.statusCode = 404;
  res.setHeader('Content-Type', 'text/plain');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`not found: ${what}`);
}

/** Every file under `root`, as `/`-separated paths relative to it. */
function filesUnder(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.isFile()) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  walk(root);
  return out.sort();
}

/** Options of {@link anamnesis}. */
export interface AnamnesisPluginOptions {
  /** URL path of the model root (what `openMemory`'s `assets.models` points at). Default `'/models/'`. */
  modelsPath?: string;
  /**
   * Folder holding `<model id>/…` to serve and emit under `modelsPath`: every file in it is
   * served and emitted, so it should hold the one model the app opens. Default
   * {@link MODEL_ROOT}, the embedded default model's folder (`@anamnesis/model-default`, about
   * 5.5 MB); {@link ENGLISH_MODEL_ROOT} for the English model (with `openMemory({ model:
   * ENGLISH_MODEL_ID })`), or a folder of the app's own.
   */
  modelRoot?: string;
  /** URL path of ONNX Runtime's files (`openMemory`'s `assets.ort`). Default `'/ort/'`. */
  ortPath?: string;
  /**
   * ONNX Runtime builds to serve and emit under `ortPath`: `'plain'` (wasm only, 14 MB; what
   * `device: 'wasm'` loads for an ONNX model or `runtime: 'onnx'`) and `'asyncify'` (wasm and
   * WebGPU, 27 MB; what `'webgpu'` and `'auto'` load for an ONNX model). Default `[]`: none, since
   * the default model on `'wasm'` or `'auto'` runs in plain JavaScript and never loads ONNX
   * Runtime. An app that offers another model, `device: 'webgpu'` or `runtime: 'onnx'` lists the
   * builds those load (`['plain', 'asyncify']` for all of them; `device: 'webgpu'` or `'auto'`,
   * which fall back to wasm, need both). Without the build a path needs, the runtime's files
   * answer 404 and the model does not load (`MODEL_LOAD_FAILED`).
   */
  ortBuilds?: ('asyncify' | 'plain')[];
  /**
   * `'tfidf'` for an app whose stores all open with `model: 'tfidf'` (the zero-model backend): no
   * model or ONNX Runtime file is served or emitted (their paths answer 404), which takes the model
   * (5.5 MB) and the runtime (up to 40 MB) out of the build. Default `'model'`.
   */
  backend?: 'model' | 'tfidf';
  /**
   * Adds `<link rel="preload">` for SQLite's wasm to each built HTML page, so that the browser
   * downloads it beside the page's own script instead of after the worker asked for it: on a
   * first visit the store opens sooner. (The worker script itself is not preloaded: a `Worker`
   * does not take a preloaded response, so it would be downloaded twice; the client starts the
   * worker as it connects instead.) For pages that open a store at once; a page that only forwards
   * to another tab's store (`follow: true`, an extension popup) would download it for nothing. The
   * worker does not take the page's preload either: it asks the HTTP cache, which reuses the
   * preloaded copy only where the server sent a validator (ETag or Last-Modified, so a 304 can
   * answer) or a freshness lifetime (`Cache-Control: max-age`); from a plain server that sends
   * none, the wasm (0.9 MB) is downloaded twice. Build only. Default `false`.
   */
  preload?: boolean;
  /**
   * `true` for an app that opens encrypted stores (`openMemory({ encryption })`): the worker's
   * `#cipher-sqlite` import becomes SQLite3 Multiple Ciphers' build of SQLite WASM
   * (`@evolu/sqlite-wasm` 2.2.4, which the app installs), loaded only when an encrypted store
   * opens (a lazy chunk and its 1 MB wasm: a plain store's first visit does not fetch them).
   * Default `false`: an encrypted store fails with `UNSUPPORTED`, and nothing of the cipher build
   * is in the app.
   */
  encryption?: boolean;
}

/** A route: URL prefix → folder, optionally only some files. */
interface Route {
  prefix: string;
  root: string;
  files: readonly string[] | undefined;
  /** Output folder (relative to `build.outDir`) the files are emitted to. */
  out: string;
}

function slashes(path: string): string {
  let p = path.startsWith('/') ? path : `/${path}`;
  if (!p.endsWith('/')) p += '/';
  return p;
}

/**
 * The Vite plugin: serves and emits the model and ONNX Runtime files (see the module comment) and
 * sets the dependency options anamnesis needs.
 */
export function anamnesis(options: AnamnesisPluginOptions = {}): Plugin {
  const modelsPath = slashes(options.modelsPath ?? '/models/');
  const ortPath = slashes(options.ortPath ?? '/ort/');
  const builds = options.ortBuilds ?? [];
  for (const b of builds) {
    if (!Object.hasOwn(ORT_BUILDS, b)) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `anamnesis(): unknown ortBuilds entry ${String(b)}`,
      );
    }
  }
  const none = options.backend === 'tfidf' ? [] : undefined;
  const routes: Route[] = [
    {
      prefix: modelsPath,
      root: resolve(options.modelRoot ?? MODEL_ROOT),
      files: none,
      out: modelsPath.slice(1),
    },
    {
      prefix: ortPath,
      root: ORT_DIST,
      files: none ?? builds.flatMap((b) => ORT_BUILDS[b]),
      out: ortPath.slice(1),
    },
  ];
  let config: ResolvedConfig | undefined;

  /** Serves a routed path from `root` (or from the build output, for `vite preview`). */
  const middleware =
    (fromOutput: boolean) =>
    (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
      const path = new URL(req.url ?? '/', 'http://localhost').pathname;
      const base = config?.base && config.base !== '/' ? slashes(config.base) : '';
      const local = base && path.startsWith(base) ? `/${path.slice(base.length)}` : path;
      const route = routes.find((r) => local.startsWith(r.prefix));
      if (!route) {
        next();
        return;
      }
      const rel = local.slice(route.prefix.length);
      const allowed = route.files === undefined || route.files.includes(rel);
      const root = fromOutput
        ? join(resolve(config!.root, config!.build.outDir), route.out)
        : route.root;
      const file = allowed ? fileIn(root, rel) : undefined;
      if (!file) {
        notFound(res, path);
        return;
      }
      sendFile(res, file, 'public, max-age=3600');
    };

  return {
    name: 'anamnesis',
    config() {
      // No ONNX Runtime in the build: transformers.js (which carries the runtime's JavaScript and
      // is only imported on an ONNX path) is left out too.
      const alias =
        builds.length === 0 || none
          ? [{ find: /^#transformers$/, replacement: NO_ONNX_RUNTIME }]
          : [];
      if (options.encryption) alias.push({ find: /^#cipher-sqlite$/, replacement: CIPHER_SQLITE });
      return {
        optimizeDeps: {
          exclude: ['@sqlite.org/sqlite-wasm', CIPHER_SQLITE, '@anamnesis/client'],
        },
        worker: { format: 'es' },
        resolve: {
          alias,
          ...(FROM_SOURCES && { conditions: [SOURCE_CONDITION, ...defaultClientConditions] }),
        },
        ...(FROM_SOURCES && {
          ssr: { resolve: { conditions: [SOURCE_CONDITION, ...defaultServerConditions] } },
        }),
      };
    },
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        if (!options.preload || !ctx.bundle) return undefined;
        const base = config?.base ?? '/';
        // The plain SQLite's wasm only (its bytes are the engine's `@sqlite.org/sqlite-wasm`'s):
        // the cipher build's (`encryption: true`), also `sqlite3-<hash>.wasm`, loads only for an
        // encrypted store.
        const plain = plainSqliteWasmHash();
        const files = Object.entries(ctx.bundle)
          .filter(
            ([f, out]) =>
              /(^|\/)sqlite3-[\w-]+\.wasm$/.test(f) &&
              out.type === 'asset' &&
              sha256(out.source) === plain,
          )
          .map(([f]) => f);
        return files.map((f) => ({
          tag: 'link',
          attrs: {
            rel: 'preload',
            href: `${base}${f}`,
            as: 'fetch',
            crossorigin: '',
            type: 'application/wasm',
          },
          injectTo: 'head' as const,
        }));
      },
    },
    configureServer(server) {
      server.middlewares.use(middleware(false));
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware(true));
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        if (config?.build.ssr) return;
        // transformers.js's bundle names ONNX Runtime's 27 MB wasm for the case where no
        // `wasmPaths` is set; the client always sets it (to the files below), so that hashed copy
        // is never fetched: leave it out of the output.
        for (const key of Object.keys(bundle)) {
          if (/(^|\/)ort-wasm-simd-threaded[\w.]*-[\w-]{8}\.wasm$/.test(key))
            Reflect.deleteProperty(bundle, key);
        }
        for (const route of routes) {
          for (const rel of route.files ?? filesUnder(route.root)) {
            const file = fileIn(route.root, rel);
            if (!file) this.error(`anamnesis: ${rel} is missing from ${route.root}`);
            this.emitFile({
              type: 'asset',
              fileName: `${route.out}${rel}`,
              source: readFileSync(file),
            });
          }
        }
      },
    },
  };
}
