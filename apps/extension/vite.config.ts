import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { anamnesis, ORT_DIST } from '@anamnesis/client/vite';
import { zipSync, type Zippable } from 'fflate';
import { defineConfig, type Plugin } from 'vite';

import { thirdPartyNotices } from './notices.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
/**
 * The ONNX variant (`ANAMNESIS_EXTENSION_ONNX=1`, `pnpm build:onnx`): the same extension with ONNX
 * Runtime packaged (both builds, 41 MB), whose store runs the default model on it, on WebGPU where
 * it is faster (`device: 'auto'`, `runtime: 'onnx'`): the starting point for an extension that
 * runs another ONNX model. The default build runs the default model in plain JavaScript and ships
 * no runtime. Either way every file is packaged: MV3 allows no remote code.
 */
const onnx = process.env.ANAMNESIS_EXTENSION_ONNX === '1';
const outDir = join(root, onnx ? 'dist-onnx' : 'dist');
/** The zip of the output folder (what a store upload takes), next to it rather than inside it. */
const zipFile = join(
  root,
  'release',
  onnx ? 'anamnesis-extension-onnx.zip' : 'anamnesis-extension.zip',
);

/** After the build: zips `dist/` (pure JS, no `zip` CLI needed). */
function zipDist(): Plugin {
  return {
    name: 'anamnesis-extension-zip',
    apply: 'build',
    closeBundle() {
      const files: Zippable = {};
      const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
          const path = join(dir, entry.name);
          if (entry.isDirectory()) walk(path);
          else files[relative(outDir, path).split(sep).join('/')] = readFileSync(path);
        }
      };
      walk(outDir);
      mkdirSync(join(root, 'release'), { recursive: true });
      writeFileSync(zipFile, zipSync(files, { level: 6 }));
    },
  };
}

/**
 * The manifest asks for the least that works: `activeTab` (granted by the menu, the shortcut and
 * the popup) and no host permissions. A test build (`ANAMNESIS_EXTENSION_TEST=1`) also gets the
 * local test server's origin, so tests can remember a page without a click on it first.
 */
function testPermissions(): Plugin {
  return {
    name: 'anamnesis-extension-test-permissions',
    apply: 'build',
    writeBundle() {
      if (process.env.ANAMNESIS_EXTENSION_TEST !== '1') return;
      const file = join(outDir, 'manifest.json');
      const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      manifest.host_permissions = ['http://127.0.0.1/*'];
      writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
    },
  };
}

/** THIRD-PARTY-NOTICES.txt in `dist/` (and the zip), from the modules of the build and its workers. */
const notices = thirdPartyNotices({ product: 'the anamnesis browser extension', ortDir: ORT_DIST });

export default defineConfig({
  root,
  // Relative URLs: pages load their scripts from the extension's own origin.
  base: './',
  // The default model under /models/ (it runs in plain JavaScript: no ONNX Runtime), and in the
  // ONNX variant both ONNX Runtime builds under /ort/; all packaged: no remote code.
  plugins: [
    anamnesis({ ortBuilds: onnx ? ['plain', 'asyncify'] : [] }),
    testPermissions(),
    notices.write,
    zipDist(),
  ],
  define: { __ANAMNESIS_ONNX__: JSON.stringify(onnx) },
  worker: { format: 'es', plugins: () => [notices.collect] },
  build: {
    target: 'es2022',
    outDir,
    emptyOutDir: true,
    chunkSizeWarningLimit: 4096,
    reportCompressedSize: false,
    // No inlined assets: data: URLs are fine, but files keep the CSP simple to audit.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: {
      input: {
        popup: join(root, 'popup.html'),
        search: join(root, 'search.html'),
        offscreen: join(root, 'offscreen.html'),
        background: join(root, 'src/background.ts'),
      },
      output: {
        // The manifest names the service worker: a fixed name, at the root.
        entryFileNames: (chunk) =>
          chunk.name === 'background' ? 'background.js' : 'assets/[name]-[hash].js',
      },
    },
  },
});
