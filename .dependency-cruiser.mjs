/**
 * `pnpm run deps` (part of `pnpm run check`): no import cycles in the packages' and apps' sources,
 * type-only imports included, and the folder rules of `packages/engine/src` (each folder's
 * README.md says what it owns and what it may import; CONTRIBUTING.md has the whole picture).
 */
const SRC = '^packages/engine/src/';

/**
 * What each folder of `packages/engine/src` may import besides itself, `types.ts` (the public
 * data types, which import nothing of the engine) and other packages: folders, or a top-level
 * file. Read from the top down: no folder imports one listed after it, so folders form no cycle.
 */
const MAY_IMPORT = {
  input: [],
  store: [],
  vectors: ['store'],
  embedding: ['vectors'],
  similarity: ['store', 'vectors', 'embedding'],
  recall: ['input', 'store', 'similarity'],
  writes: ['input', 'store', 'embedding', 'similarity'],
  io: ['input', 'store', 'vectors', 'embedding', 'similarity', 'writes'],
  storage: ['store', 'io'],
  engine: ['input', 'store', 'embedding', 'similarity', 'recall', 'writes', 'io', 'storage'],
  cli: ['io', 'storage', 'engine.ts'],
};

/** A folder (`store` → `store/`) or a top-level file (`engine.ts`) as a path pattern. */
const pattern = (name) => (name.endsWith('.ts') ? `${name.replace('.', '\\.')}$` : `${name}/`);
const list = (names) => names.map((n) => (n.endsWith('.ts') ? n : `${n}/`)).join(', ');

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles anywhere, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...Object.entries(MAY_IMPORT).map(([folder, allowed]) => ({
      name: `folder-${folder}`,
      comment: `engine/src/${folder}/ imports ${allowed.length > 0 ? `only ${list(allowed)} and` : 'only'} types.ts of the engine (${folder}/README.md)`,
      severity: 'error',
      from: { path: `${SRC}${folder}/` },
      to: {
        path: SRC,
        pathNot: `${SRC}(${[folder, ...allowed, 'types.ts'].map(pattern).join('|')})`,
      },
    })),
    {
      name: 'engine-types-leaf',
      comment: 'engine/src/types.ts, imported by every folder, imports nothing of the engine',
      severity: 'error',
      from: { path: `${SRC}types\\.ts$` },
      to: { path: SRC },
    },
    {
      name: 'engine-public-surface',
      comment: 'engine.ts and index.ts are the public surface: no folder imports them but cli/',
      severity: 'error',
      from: { path: SRC, pathNot: `${SRC}(cli/|index\\.ts$)` },
      to: { path: `${SRC}(engine|index)\\.ts$` },
    },
    {
      name: 'engine-parts',
      comment: "engine/src/engine/ holds engine.ts's parts: only engine.ts imports them",
      severity: 'error',
      from: { path: SRC, pathNot: `${SRC}(engine/|engine\\.ts$)` },
      to: { path: `${SRC}engine/` },
    },
    {
      name: 'engine-cli-entry',
      comment: 'engine/src/cli/ is the command: only bin.ts imports it',
      severity: 'error',
      from: { path: SRC, pathNot: `${SRC}(cli/|bin\\.ts$)` },
      to: { path: `${SRC}cli/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      conditionNames: ['@anamnesis/source', 'import', 'types', 'default'],
      extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
