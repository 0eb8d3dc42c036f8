// The pages corpus's passages: npm READMEs, Markdown made roughly plain, cut as the extension cuts.
import { readFileSync } from 'node:fs';
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
];

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
    const dir = `${PNPM}${name}@${version}/node_modules/${name}/`;
    const pkg = JSON.parse(readFileSync(`${dir}package.json`, 'utf8'));
    const readme = readFileSync(`${dir}README.md`, 'utf8');
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
