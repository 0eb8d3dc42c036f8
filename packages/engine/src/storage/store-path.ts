/**
 * Where a file store lives when no path is given: one default for the CLI (`anamnesis`) and the
 * MCP server (`anamnesis-mcp`), so that an assistant and the terminal share one memory.
 */

/** The default store, as the docs write it: `~/.anamnesis/memory.db`. */
export const DEFAULT_STORE_PATH = '~/.anamnesis/memory.db';

/**
 * The default store under the home folder `home` (`os.homedir()` in Node):
 * `<home>/.anamnesis/memory.db`, with the separator `home` uses (a backslash when it has only
 * those, else `/`).
 * Pure (no `node:` import), so the engine's browser bundle can carry it.
 */
export function defaultStorePath(home: string): string {
  const sep = home.includes('\\') && !home.includes('/') ? '\\' : '/';
  return `${home.replace(/[\\/]+$/, '')}${sep}.anamnesis${sep}memory.db`;
}
