/**
 * The API reference: TypeDoc over the public entry points of every published package (the
 * `exports` of packages/*\/package.json, through their `@anamnesis/source` condition), as Markdown
 * in docs/api (typedoc-plugin-markdown). Validation is strict: a public export without
 * documentation, a type used but not exported, or a broken `{@link}` fails.
 *
 * Exports documented before this check existed and still without a comment are listed, one per
 * line, in docs/api-undocumented.txt (TypeDoc's `intentionallyNotDocumented`): the list may only
 * shrink, since a listed name that is documented (or gone) is an error too.
 *
 *   node scripts/docs-api.mjs           regenerate docs/api
 *   node scripts/docs-api.mjs --check   generate into a temporary folder and fail when it differs
 *                                       from the checked-in docs/api (or when validation warns)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Application, Converter, ReflectionKind } from 'typedoc';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const OUT = join(REPO, 'docs', 'api');
const check = process.argv.includes('--check');

/** Every published package's entry points: source file → module name (`@anamnesis/client/vite`). */
function entryPoints() {
  const names = new Map();
  for (const dir of readdirSync(join(REPO, 'packages')).sort()) {
    const pkg = JSON.parse(readFileSync(join(REPO, 'packages', dir, 'package.json'), 'utf8'));
    if (pkg.private) continue;
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      const source = typeof target === 'object' ? target['@anamnesis/source'] : undefined;
      if (typeof source !== 'string' || !source.endsWith('.ts')) continue;
      const file = join(REPO, 'packages', dir, source);
      names.set(file, subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`);
    }
  }
  return names;
}

const names = entryPoints();
const UNDOCUMENTED = join(REPO, 'docs', 'api-undocumented.txt');
const undocumented = readFileSync(UNDOCUMENTED, 'utf8')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line !== '' && !line.startsWith('#'));
/** `@anamnesis/client/vite` → `@anamnesis/client`. */
function packageName(moduleName) {
  return moduleName.split('/').slice(0, 2).join('/');
}
const out = check ? mkdtempSync(join(tmpdir(), 'anamnesis-api-')) : OUT;

const app = await Application.bootstrapWithPlugins({
  entryPoints: [...names.keys()],
  entryPointStrategy: 'resolve',
  tsconfig: join(REPO, 'tsconfig.docs.json'),
  plugin: ['typedoc-plugin-markdown'],
  out,
  name: 'anamnesis',
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  disableSources: true,
  hidePageHeader: true,
  hideBreadcrumbs: true,
  useCodeBlocks: true,
  validation: { notExported: true, invalidLink: true, notDocumented: true },
  requiredToBeDocumented: [
    'Enum',
    'EnumMember',
    'Variable',
    'Function',
    'Class',
    'Interface',
    'Property',
    'Method',
    'Accessor',
    'TypeAlias',
  ],
  // by default only the root package.json's name ("anamnesis") is checked
  packagesRequiringDocumentation: [...new Set([...names.values()].map(packageName))],
  intentionallyNotDocumented: undocumented,
  // (the API does not apply treatWarningsAsErrors: any warning ends the run below)
  treatWarningsAsErrors: true,
  logLevel: 'Warn',
});

// Modules are named by package (and subpath), not by their path in the repo ("client/src/vite").
const byPath = new Map(
  [...names].map(([file, name]) => [
    relative(join(REPO, 'packages'), file)
      .split(sep)
      .join('/')
      .replace(/\.ts$/, '')
      .replace(/\/index$/, ''),
    name,
  ]),
);
app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
  for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
    module.name = byPath.get(module.name) ?? module.name;
  }
});

const project = await app.convert();
if (!project) process.exit(1);
app.validate(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);
await app.generateOutputs(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);

if (check) {
  const list = (root) =>
    readdirSync(root, { recursive: true })
      .map(String)
      .filter((f) => statSync(join(root, f)).isFile())
      .sort();
  const want = list(out);
  let have = [];
  try {
    have = list(OUT);
  } catch {
    // no docs/api yet
  }
  const differs = [
    ...want.filter((f) => !have.includes(f)).map((f) => `missing: docs/api/${f}`),
    ...have.filter((f) => !want.includes(f)).map((f) => `stale: docs/api/${f}`),
    ...want
      .filter((f) => have.includes(f))
      .filter((f) => readFileSync(join(out, f), 'utf8') !== readFileSync(join(OUT, f), 'utf8'))
      .map((f) => `differs: docs/api/${f}`),
  ];
  rmSync(out, { recursive: true, force: true });
  if (differs.length > 0) {
    console.error(
      `${differs.join('\n')}\ndocs/api is not what the sources give: run node scripts/docs-api.mjs`,
    );
    process.exit(1);
  }
  console.log(`docs/api matches the sources (${want.length} files)`);
} else {
  console.log(`wrote ${relative(REPO, OUT).split(sep).join('/')}`);
}
