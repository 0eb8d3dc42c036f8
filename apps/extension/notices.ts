/**
 * `THIRD-PARTY-NOTICES.txt` of an app's build (the extension's `dist/`, and so its release zip; the
 * notes app's `dist/`): every npm package whose code or files the build ships, with its version, licence and licence text. Found
 * from the build itself: the modules of every chunk (workers included), the packages an esbuild
 * bundle among them carries (its `node_modules/.pnpm/NAME@VERSION` path comments, as in
 * transformers.js's browser build), ONNX Runtime's files under `ort/`, and the data the default
 * model under `models/` is derived from. A package whose licence text cannot be found fails the
 * build.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { Plugin } from 'vite';

import { bundledPackages } from '../../packages/engine/scripts/vendor-notices.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = join(here, '../..');
const pnpmStore = join(repoRoot, 'node_modules/.pnpm');
/**
 * Licence texts the packages on disk lack (`NAME-VERSION.txt`, scope `/` written `+`): packages
 * without a licence file, and data packages the build derives files from.
 */
const extraTexts = join(here, 'third-party');
/** The engine's notices: the texts for the packages inside the vendored transformers.js. */
const engineNotices = join(repoRoot, 'packages/engine/THIRD-PARTY-NOTICES.txt');

/** A shipped package and its licence. */
export interface Notice {
  name: string;
  version: string;
  license: string;
  /** Why it is in the build: 'bundled', 'inside NAME', 'files under ort/'… */
  via: string;
  text: string;
}

/**
 * The package folder holding module `id` (`…/node_modules/NAME` or `…/node_modules/@SCOPE/NAME`),
 * or null for code outside `node_modules` (this repository's own packages).
 */
export function packageDirOf(id: string): string | null {
  const path = id.replace(/^\0/, '').replace(/[?#].*$/s, '');
  const marker = '/node_modules/';
  const at = path.lastIndexOf(marker);
  if (at < 0) return null;
  const parts = path.slice(at + marker.length).split('/');
  const length = parts[0]?.startsWith('@') ? 2 : 1;
  if (parts.length <= length) return null;
  return `${path.slice(0, at)}${marker}${parts.slice(0, length).join('/')}`;
}

/** The licence files of a package folder, in one text (LICENSE, LICENCE, COPYING, NOTICE). */
function licenceText(dir: string): string | null {
  const files = readdirSync(dir)
    .filter((f) => /^(licen[cs]e|copying|notice)([.-].*)?$/i.test(f))
    .sort();
  if (files.length === 0) return null;
  return files.map((f) => readFileSync(join(dir, f), 'utf8').trim()).join('\n\n');
}

/** The notice of the package in folder `dir`. */
function packageNotice(dir: string, via: string): Notice {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
    license?: string;
  };
  const extra = join(extraTexts, `${pkg.name.replace('/', '+')}-${pkg.version}.txt`);
  const text = licenceText(dir) ?? (existsSync(extra) ? readFileSync(extra, 'utf8').trim() : null);
  if (!text) throw new Error(`third-party notices: no licence text for ${pkg.name} ${pkg.version}`);
  return { name: pkg.name, version: pkg.version, license: pkg.license ?? 'see text', via, text };
}

/**
 * The notice of `name@version` where only the name and version are known: its folder in the pnpm
 * store, else `third-party/NAME-VERSION.txt`, else its section of the engine's notices.
 */
function notice(name: string, version: string, via: string): Notice {
  const flat = `${name.replace('/', '+')}@${version}`;
  const entry = existsSync(pnpmStore)
    ? readdirSync(pnpmStore).find((e) => e === flat || e.startsWith(`${flat}_`))
    : undefined;
  if (entry) return packageNotice(join(pnpmStore, entry, 'node_modules', name), via);
  const extra = join(extraTexts, `${name.replace('/', '+')}-${version}.txt`);
  if (existsSync(extra)) {
    return { name, version, license: 'see text', via, text: readFileSync(extra, 'utf8').trim() };
  }
  const engine = readFileSync(engineNotices, 'utf8');
  const quoted = `${name} ${version}`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const section = new RegExp(`\\n${quoted}: LICENSE\\n=+\\n\\n([\\s\\S]*?)(?:\\n=+\\n|$)`).exec(
    engine,
  );
  // the list at the top of the engine's notices: "  NAME   VERSION   SPDX   URL"
  const listed = new RegExp(`^\\s+${quoted.replace(' ', '\\s+')}\\s+(\\S+)`, 'm').exec(engine);
  if (section) {
    return { name, version, license: listed?.[1] ?? 'see text', via, text: section[1]!.trim() };
  }
  throw new Error(`third-party notices: no licence text for ${name} ${version}`);
}

/** The notices file of `product`: the app's own licence, a list, then each package's text. */
export function renderNotices(product: string, notices: Notice[]): string {
  const rule = '='.repeat(80);
  const sorted = [...notices].sort((a, b) => a.name.localeCompare(b.name));
  return [
    `THIRD-PARTY NOTICES for ${product}`,
    '',
    'This build ships code and files of the packages below. Each is listed with its version, its',
    'licence, why it is here, and its licence text. The app itself is MIT (LICENSE of the',
    'anamnesis repository).',
    '',
    ...sorted.map((n) => `  ${n.name} ${n.version} (${n.license}): ${n.via}`),
    '',
    ...sorted.flatMap((n) => [rule, `${n.name} ${n.version}: LICENSE`, rule, '', n.text, '']),
  ].join('\n');
}

/**
 * The plugins: `collect` goes into `worker.plugins` (it records the modules of worker bundles),
 * `write` into the build's plugins, before any plugin that reads the output folder when the build
 * closes (the extension's zip, the notes app's service worker): it records the main bundle's
 * modules too and writes the file when the bundle is written.
 */
export function thirdPartyNotices(options: { product: string; ortDir: string }): {
  collect: Plugin;
  write: Plugin;
} {
  const dirs = new Map<string, string>();
  const collect: Plugin = {
    name: 'anamnesis-third-party-notices-collect',
    apply: 'build',
    renderChunk(_code, chunk) {
      for (const id of chunk.moduleIds) {
        const dir = packageDirOf(id);
        if (dir && !dirs.has(dir)) dirs.set(dir, id);
      }
      return null;
    },
  };
  let outDir = '';
  const write: Plugin = {
    name: 'anamnesis-third-party-notices',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    renderChunk: collect.renderChunk,
    writeBundle() {
      const notices = new Map<string, Notice>();
      const add = (n: Notice) => {
        const key = `${n.name}@${n.version}`;
        const known = notices.get(key);
        if (!known) notices.set(key, n);
        else if (!known.via.split('; ').includes(n.via)) known.via += `; ${n.via}`;
      };
      for (const [dir, id] of dirs) {
        const n = packageNotice(dir, 'bundled');
        add(n);
        const file = id.replace(/^\0/, '').replace(/[?#].*$/s, '');
        if (/\.m?js$/.test(file) && existsSync(file)) {
          for (const inner of bundledPackages(readFileSync(file, 'utf8'))) {
            add(notice(inner.name, inner.version, `inside ${n.name}'s bundle`));
          }
        }
      }
      if (existsSync(join(outDir, 'ort'))) {
        let dir = options.ortDir;
        while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
        add(packageNotice(dir, 'its files under ort/'));
      }
      const manifest = join(outDir, 'models', 'manifest.json');
      if (existsSync(manifest)) {
        // the model's sources: `source` (one npm package: the English model's manifest) or
        // `sources` (the default model's: npm packages and data with no package, e.g. Debian's
        // descriptions, whose terms the manifest's `licences` state and the model's README repeats)
        const { source, sources } = JSON.parse(readFileSync(manifest, 'utf8')) as {
          source?: { package: string; version: string };
          sources?: Record<string, { package?: string; version?: string }>;
        };
        const packages = [source, ...Object.values(sources ?? {})].filter(
          (s): s is { package: string; version: string } =>
            typeof s?.package === 'string' && typeof s.version === 'string',
        );
        for (const s of packages)
          add(notice(s.package, s.version, 'the default model under models/ is derived from it'));
      }
      writeFileSync(
        join(outDir, 'THIRD-PARTY-NOTICES.txt'),
        renderNotices(options.product, [...notices.values()]),
      );
    },
  };
  return { collect, write };
}
