// The pages corpus's passages: npm READMEs, Markdown made roughly plain, cut as the extension cuts.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { chunkText } from './lib.mjs';

const PNPM = fileURLToPath(new URL('../../../../node_modules/.pnpm/', import.meta.url));

/** name, version, whether the title gets ": description" (a colon). */
export const PACKAGES = [
  ['comlink', '4.4.2', true],
  ['idb-keyval', '6.3.0', false],
  ['mustache', '4.2.0', true],
  ['lru-cache', '11.5.3', false],
  ['ws', '8.23.0', true],
  ['js-yaml', '3.15.2', false],
  ['magic-string', '0.30.21', false],
  ['ignore', '5.3.2', true],
  // Added for issue 42 (the first eight are kept as they are): pages about libraries like the
  // first eight, so that a question has near neighbours: glob matchers (beside ignore), caches
  // and key-value stores (beside lru-cache and idb-keyval), YAML / JSON5 / TOML parsers (beside
  // js-yaml), source-map tools (beside magic-string) and command-line option parsers.
  ['minimatch', '10.2.6', true],
  ['picomatch', '4.0.4', false],
  ['micromatch', '4.0.8', true],
  ['fast-glob', '3.3.3', false],
  ['glob', '10.5.0', true],
  ['keyv', '5.6.0', true],
  ['@cacheable/memory', '2.2.0', false],
  ['yaml', '2.9.1', true],
  ['json5', '2.2.3', false],
  ['smol-toml', '1.9.1', true],
  ['source-map-js', '1.2.4', false],
  ['@jridgewell/sourcemap-codec', '1.6.0', true],
  ['sade', '1.8.1', false],
  ['@pkgjs/parseargs', '0.11.0', true],
  ['yargs-parser', '22.0.0', false],
  ['flat-cache', '6.1.23', false],
];

/** A package name as it appears in ids: `@scope/name` becomes `scope-name`. */
export function idName(name) {
  return name.replace(/^@/, '').replace('/', '-');
}

/** Markdown to roughly the text a browser shows: no badges, URLs, HTML tags or fence markers. */
export function markdownToText(md) {
  return md
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/^```.*$/gm, '') // fence markers (the code inside stays)
    .replace(/^~~~.*$/gm, '')
    .replace(/\[!\[[^\]]*\]\([^)]*\)\]\([^)]*\)/g, '') // linked badges
    .replace(/!\[[^\]]*\]\([^)]*\)/g, '') // images
    .replace(/!\[[^\]]*\]\[[^\]]*\]/g, '')
    .replace(/^\s*\[[^\]]+\]:\s*\S+.*$/gm, '') // link definitions
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](url)
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1') // [text][ref]
    .replace(/<\/?[a-zA-Z][^>]*>/g, '') // HTML tags (also across lines)
    .replace(/^#{1,6}\s*/gm, '') // heading marks
    .replace(/^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/gm, '') // table rules
    .replace(/^(\s*)[-*+]\s+/gm, '$1') // bullets
    .replace(/\*\*|__/g, '')
    .replace(/`/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function pages() {
  return PACKAGES.map(([name, version, colon]) => {
    const dir = `${PNPM}${name.replace('/', '+')}@${version}/node_modules/${name}/`;
    const pkg = JSON.parse(readFileSync(`${dir}package.json`, 'utf8'));
    const file = ['README.md', 'readme.md'].find((f) => existsSync(`${dir}${f}`)) ?? 'README.md';
    const readme = readFileSync(`${dir}${file}`, 'utf8');
    const title = colon ? `${name}: ${pkg.description}` : name;
    const url = `https://www.npmjs.com/package/${name}`;
    const chunks = chunkText(markdownToText(readme));
    return {
      name,
      version,
      license: pkg.license,
      description: pkg.description,
      readmeBytes: readme.length,
      title,
      url,
      chunks,
    };
  });
}
