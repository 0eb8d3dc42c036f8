// Copies transformers.js's own browser build into dist/vendor/ (run by `pnpm build`, after tsc).
//
// Why: `@huggingface/transformers` depends on onnxruntime-node (~245 MB, with an install script
// that downloads CUDA parts), also where only its browser build is used. The engine imports it
// as `#transformers` (package.json `imports`): Node gets the real package (an optional peer), a
// browser bundle gets this copy of its published `dist/transformers.web.js`, whose only import is
// onnxruntime-web (an optional peer, a dependency of @anamnesis/client). So a browser app never
// installs onnxruntime-node.
//
// One change to the file: its `import { Tensor } from "onnxruntime-common"` takes the same class
// from `onnxruntime-web/webgpu` (which re-exports it), so the copy needs no other package.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { bundledPackages, noticeProblems } from './vendor-notices.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(root, 'package.json'));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

let tfRoot = dirname(require.resolve('@huggingface/transformers'));
while (!tfRoot.endsWith('transformers')) tfRoot = dirname(tfRoot);
const tfPkg = JSON.parse(readFileSync(join(tfRoot, 'package.json'), 'utf8'));

const fail = (message) => {
  console.error(`vendor-transformers: ${message}`);
  process.exit(1);
};
if (tfPkg.version !== pkg.peerDependencies['@huggingface/transformers'])
  fail(
    `@huggingface/transformers ${tfPkg.version} installed, the peer range says ${pkg.peerDependencies['@huggingface/transformers']}`,
  );
if (tfPkg.dependencies['onnxruntime-web'] !== pkg.peerDependencies['onnxruntime-web'])
  fail(
    `transformers.js wants onnxruntime-web ${tfPkg.dependencies['onnxruntime-web']}, the peer says ${pkg.peerDependencies['onnxruntime-web']}`,
  );

let code = readFileSync(join(tfRoot, 'dist', 'transformers.web.js'), 'utf8');
const common = 'import { Tensor } from "onnxruntime-common";';
if (code.split(common).length !== 2) fail(`expected one "${common}"`);
code = code.replace(common, 'import { Tensor } from "onnxruntime-web/webgpu";');
code = code.replace(/\n\/\/# sourceMappingURL=.*\n?$/, '\n');
const imports = [...code.matchAll(/^\s*import\s[^;]*?from\s+"([^"]+)";/gm)].map((m) => m[1]);
const external = [...new Set(imports.filter((s) => !s.startsWith('.')))];
if (external.join() !== 'onnxruntime-web/webgpu')
  fail(`unexpected imports in transformers.web.js: ${external.join(', ')}`);

// Every package in the copy (transformers.js and what it bundles) needs its licence text in
// THIRD-PARTY-NOTICES.txt (shipped with the package), at the version bundled.
const notices = readFileSync(join(root, 'THIRD-PARTY-NOTICES.txt'), 'utf8');
const problems = noticeProblems(notices, [
  { name: '@huggingface/transformers', version: tfPkg.version },
  ...bundledPackages(code),
]);
if (problems.length > 0) fail(problems.join('; '));

const out = join(root, 'dist', 'vendor');
mkdirSync(out, { recursive: true });
const header =
  `// @huggingface/transformers ${tfPkg.version} (Apache-2.0), bundling @huggingface/tokenizers\n` +
  `// (Apache-2.0) and @huggingface/jinja (MIT): licence texts in THIRD-PARTY-NOTICES.txt. Its\n` +
  `// dist/transformers.web.js, with Tensor imported from onnxruntime-web/webgpu instead of\n` +
  `// onnxruntime-common. Copied by @anamnesis/engine's scripts/vendor-transformers.mjs.\n`;
/**
 * Writes `text` to `path` unless the file already holds it: a build of an up-to-date package
 * rewrites nothing, so a pack running beside it (CI packs in parallel) never reads a half-written
 * file.
 */
function writeIfChanged(path, text) {
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return;
  writeFileSync(path, text);
}
writeIfChanged(join(out, 'transformers.web.js'), header + code);
writeIfChanged(
  join(out, 'LICENSE-transformers.txt'),
  readFileSync(join(tfRoot, 'LICENSE'), 'utf8'),
);
writeIfChanged(join(out, 'THIRD-PARTY-NOTICES.txt'), notices);
