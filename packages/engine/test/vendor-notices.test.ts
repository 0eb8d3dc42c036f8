/**
 * The vendored transformers.js bundle ships with the licence of every package in it
 * (THIRD-PARTY-NOTICES.txt, in the package's `files` and copied beside the bundle).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledPackages, noticeProblems } from '../scripts/vendor-notices.mjs';

const root = join(import.meta.dirname, '..');
const transformers = realpathSync(join(root, 'node_modules/@huggingface/transformers'));
const bundle = readFileSync(join(transformers, 'dist/transformers.web.js'), 'utf8');
const notices = readFileSync(join(root, 'THIRD-PARTY-NOTICES.txt'), 'utf8');

describe('third-party notices of the vendored bundle', () => {
  it('finds the packages the bundle carries', () => {
    const names = bundledPackages(bundle).map((p) => p.name);
    expect(names).toContain('@huggingface/tokenizers');
    expect(names).toContain('@huggingface/jinja');
  });

  it('has a section with the licence text for each of them and for transformers.js', () => {
    const version = (
      JSON.parse(readFileSync(join(transformers, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
    const packages = [{ name: '@huggingface/transformers', version }, ...bundledPackages(bundle)];
    expect(noticeProblems(notices, packages)).toEqual([]);
    // the texts as the packages publish them (tokenizers is installed at the bundled version)
    const installed = (name: string) =>
      readFileSync(join(dirname(transformers), name, 'LICENSE'), 'utf8').trim();
    expect(notices).toContain(installed('transformers'));
    expect(notices).toContain(installed('tokenizers'));
    expect(notices).toContain('MIT License\n\nCopyright (c) 2023 Hugging Face');
    expect(noticeProblems(notices, [{ name: '@huggingface/jinja', version: '9.9.9' }])).toEqual([
      'THIRD-PARTY-NOTICES.txt has no licence section for @huggingface/jinja 9.9.9',
    ]);
  });

  it('is published with the package', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
    expect(pkg.files).toContain('THIRD-PARTY-NOTICES.txt');
  });
});
