import { describe, expect, it } from 'vitest';

import { packageDirOf, renderNotices } from '../notices.ts';

describe('third-party notices', () => {
  it('finds the package folder of a bundled module (scoped, nested, with a query)', () => {
    const store = '/r/node_modules/.pnpm/@huggingface+transformers@4.3.1/node_modules';
    expect(packageDirOf(`${store}/@huggingface/transformers/dist/transformers.web.js`)).toBe(
      `${store}/@huggingface/transformers`,
    );
    expect(packageDirOf('\0/r/node_modules/comlink/dist/esm/comlink.mjs?commonjs-proxy')).toBe(
      '/r/node_modules/comlink',
    );
    expect(packageDirOf('/r/node_modules/a/node_modules/b/index.js')).toBe(
      '/r/node_modules/a/node_modules/b',
    );
    expect(packageDirOf('/r/packages/engine/src/engine.ts')).toBeNull();
    expect(packageDirOf('/r/node_modules/.vite/x')).toBe('/r/node_modules/.vite');
  });

  it('lists each package with version, licence and why, then each licence text', () => {
    const text = renderNotices('a test app', [
      { name: 'zeta', version: '1.0.0', license: 'MIT', via: 'bundled', text: 'MIT text' },
      { name: '@a/b', version: '2.0.0', license: 'Apache-2.0', via: 'files', text: 'Apache text' },
    ]);
    expect(text.startsWith('THIRD-PARTY NOTICES for a test app\n')).toBe(true);
    expect(text).toContain('  @a/b 2.0.0 (Apache-2.0): files\n  zeta 1.0.0 (MIT): bundled\n');
    expect(text.indexOf('@a/b 2.0.0: LICENSE')).toBeLessThan(text.indexOf('zeta 1.0.0: LICENSE'));
    expect(text).toMatch(/zeta 1\.0\.0: LICENSE\n=+\n\nMIT text\n/);
  });
});
