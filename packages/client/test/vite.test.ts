/**
 * The Vite plugin on a real dev server: model and runtime files from their packages, 404 (never
 * index.html) for anything missing under its paths, and the dependency options anamnesis needs.
 * (The build output and `vite preview` are covered by the browser tests on apps/example.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { ENGLISH_MODEL_FILES, MODEL_FILES } from '@anamnesis/model-default';
import { build, createServer, type Rolldown, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  anamnesis,
  ENGLISH_MODEL_ROOT,
  MODEL_ROOT,
  ORT_BUILDS,
  ORT_DIST,
  ORT_FILES,
} from '../src/vite.ts';

const require = createRequire(import.meta.url);

let server: ViteDevServer;
let base: string;

beforeAll(async () => {
  server = await createServer({
    configFile: false,
    root: MODEL_ROOT, // any folder; it serves no app here
    logLevel: 'silent',
    plugins: [anamnesis({ ortBuilds: ['plain'] })],
    server: { port: 0, host: '127.0.0.1', ws: false },
    optimizeDeps: { noDiscovery: true },
  });
  await server.listen();
  base = server.resolvedUrls!.local[0]!.replace(/\/$/, '');
});

afterAll(async () => {
  await server?.close();
});

describe("anamnesis({ backend: 'tfidf' })", () => {
  it('serves no model and no ONNX Runtime file: an app on the zero-model backend ships neither', async () => {
    const tfidf = await createServer({
      configFile: false,
      root: MODEL_ROOT,
      logLevel: 'silent',
      plugins: [anamnesis({ backend: 'tfidf' })],
      server: { port: 0, host: '127.0.0.1', ws: false },
      optimizeDeps: { noDiscovery: true },
    });
    await tfidf.listen();
    try {
      const url = tfidf.resolvedUrls!.local[0]!.replace(/\/$/, '');
      for (const path of [
        ...MODEL_FILES.map((f) => `/models/${f}`),
        ...ORT_FILES.map((f) => `/ort/${f}`),
      ]) {
        const response = await fetch(`${url}${path}`);
        expect(response.status, path).toBe(404);
        await response.text();
      }
    } finally {
      await tfidf.close();
    }
  });
});

/**
 * The files (name → text of its JavaScript, '' for other files) that a build of a one-line app
 * with `plugin` writes (nothing is written to disk).
 */
async function built(
  plugin: ReturnType<typeof anamnesis>,
  main = 'console.log(1);',
  extra: Record<string, string | Uint8Array> = {},
): Promise<Map<string, string>> {
  const root = mkdtempSync(join(tmpdir(), 'anamnesis-vite-'));
  try {
    writeFileSync(join(root, 'index.html'), '<script type="module" src="./main.js"></script>');
    writeFileSync(join(root, 'main.js'), main);
    for (const [name, text] of Object.entries(extra)) {
      mkdirSync(dirname(join(root, name)), { recursive: true });
      writeFileSync(join(root, name), text);
    }
    const output = (await build({
      configFile: false,
      root,
      logLevel: 'silent',
      plugins: [plugin],
      build: { write: false, reportCompressedSize: false },
    })) as Rolldown.RolldownOutput;
    return new Map(
      output.output.map((o) => [
        o.fileName,
        o.type === 'chunk'
          ? o.code
          : typeof o.source === 'string'
            ? o.source
            : Buffer.from(o.source).toString('latin1'),
      ]),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('anamnesis() at build', () => {
  it('emits the default model (its files and manifest, no other model) and no ONNX Runtime file by default', async () => {
    const files = [...(await built(anamnesis())).keys()];
    expect(files.filter((f) => f.startsWith('models/')).sort()).toEqual(
      ['manifest.json', ...MODEL_FILES].map((f) => `models/${f}`).sort(),
    );
    expect(files.filter((f) => f.startsWith('ort/') || /ort-wasm/.test(f))).toEqual([]);
  });

  it('emits the English model instead of the default one with modelRoot: ENGLISH_MODEL_ROOT', async () => {
    const files = [...(await built(anamnesis({ modelRoot: ENGLISH_MODEL_ROOT }))).keys()];
    expect(files.filter((f) => f.startsWith('models/')).sort()).toEqual(
      ['manifest.json', ...ENGLISH_MODEL_FILES].map((f) => `models/${f}`).sort(),
    );
  });

  it("emits exactly the ONNX Runtime builds listed in ortBuilds (['asyncify'])", async () => {
    const files = [...(await built(anamnesis({ ortBuilds: ['asyncify'] }))).keys()];
    expect(files.filter((f) => f.startsWith('ort/'))).toEqual(
      ORT_BUILDS.asyncify.map((f) => `ort/${f}`).sort(),
    );
  });

  it("leaves transformers.js out by default: the engine's #transformers says ONNX Runtime is not in the build", async () => {
    const files = await built(
      anamnesis(),
      "void import('#transformers').then((m) => m.pipeline());",
    );
    const code = [...files.values()].join('\n');
    expect(code).toContain('this app was built without ONNX Runtime');
    expect(code).not.toMatch(/onnxruntime|InferenceSession/);
  });

  it("preloads SQLite's wasm (not the worker script, which a Worker would fetch again, nor the cipher build's wasm) only with preload: true", async () => {
    // The engine's SQLite wasm, and another file also named sqlite3.wasm (as SQLite3 Multiple
    // Ciphers' is) that only an encrypted store loads.
    const plain = readFileSync(
      createRequire(require.resolve('@anamnesis/engine/package.json')).resolve(
        '@sqlite.org/sqlite-wasm/sqlite3.wasm',
      ),
    );
    const app = [
      "new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });",
      {
        'worker.js':
          "void fetch(new URL('./sqlite3.wasm', import.meta.url)); void import('./cipher.js');",
        'cipher.js': "void fetch(new URL('./cipher/sqlite3.wasm', import.meta.url));",
        'sqlite3.wasm': plain,
        // over Vite's 4 KB inlining limit, so that it is a file of its own
        'cipher/sqlite3.wasm': new Uint8Array(8192),
      },
    ] as const;
    const html = async (plugin: ReturnType<typeof anamnesis>) =>
      (await built(plugin, app[0], app[1])).get('index.html')!;
    const preloads = (page: string) =>
      [...page.matchAll(/<link rel="preload" href="([^"]+)" as="fetch"/g)].map((m) => m[1]);
    const files = await built(anamnesis({ preload: true }), app[0], app[1]);
    const wasm = [...files.keys()].filter((f) => /sqlite3-[\w-]+\.wasm$/.test(f));
    expect(wasm).toHaveLength(2);
    const preloaded = preloads(files.get('index.html')!);
    expect(preloaded).toHaveLength(1);
    // the one preloaded is the engine's: the same bytes
    expect(files.get(preloaded[0]!.slice(1)) === plain.toString('latin1')).toBe(true);
    expect(preloads(await html(anamnesis()))).toEqual([]);
  });

  it('refuses an unknown build with INVALID_INPUT', () => {
    expect(() => anamnesis({ ortBuilds: ['jsep' as 'plain'] })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    );
  });
});

describe('anamnesis() on the dev server', () => {
  it('serves no ONNX Runtime file without ortBuilds', async () => {
    const plain = await createServer({
      configFile: false,
      root: MODEL_ROOT,
      logLevel: 'silent',
      plugins: [anamnesis()],
      server: { port: 0, host: '127.0.0.1', ws: false },
      optimizeDeps: { noDiscovery: true },
    });
    await plain.listen();
    try {
      const url = plain.resolvedUrls!.local[0]!.replace(/\/$/, '');
      const model = await fetch(`${url}/models/${MODEL_FILES[0]}`);
      expect(model.status).toBe(200);
      await model.arrayBuffer();
      for (const file of ORT_FILES) {
        const response = await fetch(`${url}/ort/${file}`);
        expect(response.status, file).toBe(404);
        await response.text();
      }
    } finally {
      await plain.close();
    }
  });

  it('serves every default model file and the chosen ONNX Runtime build, byte for byte', async () => {
    for (const file of MODEL_FILES) {
      const response = await fetch(`${base}/models/${file}`);
      expect(response.status, file).toBe(200);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(bytes.length).toBe(readFileSync(join(MODEL_ROOT, file)).length);
    }
    const wasm = await fetch(`${base}/ort/ort-wasm-simd-threaded.wasm`);
    expect(wasm.status).toBe(200);
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    await wasm.arrayBuffer();
  });

  it('answers 404 for missing files, files of a build it does not serve, and paths that escape', async () => {
    for (const path of [
      '/models/anamnesis/static-multi-64d/onnx/model.onnx',
      `/models/${ENGLISH_MODEL_FILES[0]}`, // the English model: another root, not served here
      '/models/nope/config.json',
      '/ort/ort-wasm-simd-threaded.asyncify.wasm', // not in ortBuilds
      '/ort/package.json',
      '/models/..%2fmanifest.json%2f..%2f..%2fpackage.json',
      '/models/%E0%A4%A',
    ]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain('not found');
    }
  });

  it('keeps sqlite-wasm and the client out of pre-bundling and bundles workers as ES modules', () => {
    expect(server.config.optimizeDeps.exclude).toEqual(
      expect.arrayContaining(['@sqlite.org/sqlite-wasm', '@anamnesis/client']),
    );
    expect(server.config.worker.format).toBe('es');
  });

  it('knows every ONNX Runtime file the client may ask for, from transformers.js’s own onnxruntime-web', () => {
    const pkg = JSON.parse(readFileSync(join(ORT_DIST, '..', 'package.json'), 'utf8')) as {
      name: string;
    };
    expect(pkg.name).toBe('onnxruntime-web');
    expect(ORT_FILES).toHaveLength(4);
  });
});
