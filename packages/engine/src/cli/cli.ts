/**
 * The `anamnesis` command: try the engine without a browser, on a file-backed store.
 *
 *   anamnesis ingest [--db FILE] FILE...      JSON Lines (one memory per line) or text files (as passages)
 *   anamnesis recall [--db FILE] [--profile NAME] [--top N] QUERY
 *   anamnesis stats  [--db FILE]
 *   anamnesis export [--db FILE] [--vectors]
 *   anamnesis import [--db FILE] FILE         an export (JSON Lines), atomically
 *   anamnesis recover FILE [--out FILE]       salvage a damaged store as JSON Lines
 *   anamnesis backup [--db FILE] DEST         a consistent copy of a live store, as a new file
 *   anamnesis mcp [--db FILE]                 an MCP server over stdio (needs @anamnesis/mcp)
 *   anamnesis sync [--db FILE] [--once]       sync with other devices (needs @anamnesis/sync)
 */
import { constants } from 'node:fs';
import { mkdir, open, readFile, realpath, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { AnamnesisError } from '@anamnesis/errors';
import { chunkText } from '@anamnesis/ranking';
import { createEngine } from '../engine.ts';
import { recoverStore } from '../io/recover.ts';
import { DEFAULT_STORE_PATH, defaultStorePath } from '../storage/store-path.ts';
import { jsonTerminalSafe, terminalSafe } from './terminal.ts';
import type { RememberInput } from '../types.ts';

const USAGE = `usage:
  anamnesis ingest [--db FILE] FILE...                JSON Lines, or text files as passages
  anamnesis recall [--db FILE] [--profile NAME] [--top N] QUERY
  anamnesis stats  [--db FILE]
  anamnesis export [--db FILE] [--vectors]
  anamnesis import [--db FILE] FILE                   an export (JSON Lines), atomically
  anamnesis recover FILE [--out FILE]                 salvage a damaged store as JSON Lines
  anamnesis backup [--db FILE] DEST                   a consistent copy of the store, as a new file
                                                      (while other processes write; never cp a live store)
  anamnesis mcp [--db FILE]                           an MCP server over stdio (npm install @anamnesis/mcp)
  anamnesis sync [--db FILE] [--once]                 sync with your other devices (npm install @anamnesis/sync;
                                                      ANAMNESIS_SYNC_URL, ANAMNESIS_SYNC_CODE)
The store defaults to ${DEFAULT_STORE_PATH} (the MCP server's too); ingest and import create it,
stats, recall and export on a missing one fail with STORE_NOT_FOUND (exit 1). A text file is
stored as passages of at most 800 characters; ingesting it again replaces them. recover never
writes to FILE (an --out that is FILE, by any path or link, is refused) and writes --out as a new
file, readable by its owner only (an existing file or a link there is refused); without --out
the JSON Lines go to stdout. Stored text is printed without terminal control characters; export
keeps it exact (as JSON escapes). Import them into a fresh store with: anamnesis import --db NEW.db OUT.jsonl
An encrypted store: set ANAMNESIS_PASSPHRASE (never a command-line argument, which other users can
see); ingest and import then create the store encrypted (npm install better-sqlite3-multiple-ciphers).`;

/** The passphrase of an encrypted store, from `ANAMNESIS_PASSPHRASE` (unset or empty: none). */
function passphraseFromEnv(env: NodeJS.ProcessEnv = process.env): {
  encryption?: { passphrase: string };
} {
  const passphrase = env.ANAMNESIS_PASSPHRASE;
  return passphrase ? { encryption: { passphrase } } : {};
}

/** The path as the file system resolves it (links followed); a missing file's folder resolved. */
async function resolvedPath(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const absolute = resolve(path);
    const folder = await realpath(dirname(absolute)).catch(() => dirname(absolute));
    return join(folder, basename(absolute));
  }
}

/** True when `a` and `b` name one file: one resolved path, or one device and inode (hard links). */
async function sameFile(a: string, b: string): Promise<boolean> {
  const [sa, sb] = await Promise.all([stat(a).catch(() => null), stat(b).catch(() => null)]);
  if (sa && sb && sa.ino !== 0 && sa.dev === sb.dev && sa.ino === sb.ino) return true;
  return (await resolvedPath(a)) === (await resolvedPath(b));
}

/** The session of a text file's passages: its `file:` URL. */
function fileSession(file: string): string {
  return pathToFileURL(resolve(file)).href;
}

/**
 * A text file as memories: its passages (`chunkText`, at most 800 characters each, as the
 * extension cuts pages), kind `'file'`, session the file's `file:` URL, meta `{ source, chunk,
 * chunks }` (the file's name, the passage's place and their number). A passage, not the file, is
 * what recall finds and what fits a prompt's budget. Ingesting the file again replaces them.
 */
function passagesOf(file: string, text: string): RememberInput[] {
  const passages = chunkText(text);
  const session = fileSession(file);
  const source = basename(file);
  return passages.map((passage, chunk) => ({
    text: passage,
    kind: 'file',
    session,
    meta: { source, chunk, chunks: passages.length },
  }));
}

/**
 * Writes `text` to a new file at `path`, mode 0600 (readable by its owner only: recovered memories
 * are as private as the store), exclusively and without following a symlink (`O_EXCL`,
 * `O_NOFOLLOW` where the platform has it): a file or link already there is `INVALID_INPUT`, so a
 * link planted under the name never redirects the write.
 */
async function writeNew(path: string, text: string): Promise<void> {
  const flags =
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  let file;
  try {
    file = await open(path, flags, 0o600);
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'EEXIST' || code === 'ELOOP')
      throw new AnamnesisError(
        'INVALID_INPUT',
        `--out ${path} exists: recover writes a new file and never overwrites one or follows a link; name a new file`,
        { cause: e },
      );
    throw e;
  }
  try {
    await file.writeFile(text);
  } finally {
    await file.close();
  }
}

/**
 * The commands another package runs (not dependencies of the engine, installed by who wants them):
 * the module whose `main` runs, and the package to install.
 */
const COMMANDS = {
  mcp: { module: '@anamnesis/mcp', install: '@anamnesis/mcp' },
  sync: { module: '@anamnesis/sync/main', install: '@anamnesis/sync' },
} as const;

/** What such a command's module has. */
interface CommandModule {
  main(argv: string[]): Promise<number>;
}

function isMissing(e: unknown, name: string): boolean {
  const error = e as { code?: string; message?: string };
  return (
    (error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'MODULE_NOT_FOUND') &&
    String(error.message).includes(name)
  );
}

/**
 * The module of `anamnesis <command>`, as installed next to the engine or else in the current
 * folder's project; `UNSUPPORTED` with the install line when neither has it. The name is held in
 * a variable, so neither TypeScript nor a bundler follows it into the engine's own dependencies.
 */
async function loadCommand(command: keyof typeof COMMANDS): Promise<CommandModule> {
  const { module: name, install } = COMMANDS[command];
  try {
    return (await import(name)) as CommandModule;
  } catch (e) {
    if (!isMissing(e, install)) throw e;
  }
  let path: string | undefined;
  try {
    path = createRequire(join(process.cwd(), 'package.json')).resolve(name);
  } catch (e) {
    if (!isMissing(e, install)) throw e;
  }
  if (path !== undefined) return (await import(pathToFileURL(path).href)) as CommandModule;
  throw new AnamnesisError(
    'UNSUPPORTED',
    `anamnesis ${command} needs the ${install} package, which is not installed: install it next to @anamnesis/engine (npm install ${install}), or run npx ${install}`,
  );
}

/** Runs the CLI with `argv` (without node and script); returns the exit code. */
export async function main(
  argv: string[],
  out: (line: string) => void = console.log,
): Promise<number> {
  const [command, ...rest] = argv;
  // the server parses its own options (and runs until stdin ends)
  if (command === 'mcp' || command === 'sync') return (await loadCommand(command)).main(rest);
  const { values, positionals } = parseArgs({
    args: rest,
    allowPositionals: true,
    options: {
      db: { type: 'string' },
      profile: { type: 'string', default: 'default' },
      top: { type: 'string', default: '5' },
      vectors: { type: 'boolean', default: false },
      out: { type: 'string' },
    },
  });
  if (
    !command ||
    !['ingest', 'recall', 'stats', 'export', 'import', 'recover', 'backup'].includes(command)
  ) {
    out(USAGE);
    return command ? 2 : 0;
  }
  if (command === 'recover') {
    const [file] = positionals;
    if (!file || positionals.length > 1) {
      out(USAGE);
      return 2;
    }
    if (values.out !== undefined && (await sameFile(file, values.out))) {
      throw new AnamnesisError(
        'INVALID_INPUT',
        `--out ${values.out} is the store being recovered (${file}): recover never writes to the damaged store; name another file`,
      );
    }
    const result = await recoverStore(file);
    const summary = [
      `recovered ${result.recovered} memories, ${result.unreadable} unreadable`,
      ...result.problems.map((p) => `  ${terminalSafe(p, 'visible')}`),
    ];
    if (values.out) {
      await writeNew(values.out, result.jsonl);
      for (const line of summary) out(line);
      out(`wrote ${values.out}`);
    } else {
      out(jsonTerminalSafe(result.jsonl.trimEnd()));
      for (const line of summary) console.error(line);
    }
    return result.recovered > 0 || result.unreadable === 0 ? 0 : 1;
  }
  const db = values.db ?? defaultStorePath(homedir());
  // only the writing commands create a store: a reader given a mistyped path says so
  const create = command === 'ingest' || command === 'import';
  if (create && values.db === undefined) await mkdir(dirname(db), { recursive: true, mode: 0o700 });
  // a store written with an earlier default model is re-embedded with this one, once
  const engine = await createEngine({
    storage: 'file',
    path: db,
    create,
    onModelMismatch: 'reembed',
    ...passphraseFromEnv(),
  });
  try {
    if (command === 'ingest') {
      let added = 0;
      for (const file of positionals) {
        const text = await readFile(file, 'utf8');
        if (file.endsWith('.jsonl') || file.endsWith('.ndjson')) {
          const items = text
            .split('\n')
            .filter((l) => l.trim() !== '')
            .map((l, i) => {
              try {
                return JSON.parse(l) as RememberInput;
              } catch {
                throw new AnamnesisError('INVALID_INPUT', `${file}:${i + 1}: not JSON`);
              }
            });
          added += (await engine.rememberMany(items)).length;
        } else {
          // a file ingested again replaces its passages (in one transaction)
          const passages = passagesOf(file, text);
          const replace = { kind: 'file', session: passages[0]?.session ?? fileSession(file) };
          added += (await engine.rememberMany(passages, { replace })).length;
        }
      }
      out(`ingested ${added} memories into ${db}`);
    } else if (command === 'recall') {
      const query = positionals.join(' ');
      const results = await engine.recall(query, {
        profile: values.profile,
        topK: Number(values.top),
        explain: true,
      });
      results.forEach((r, i) => {
        out(
          `${i + 1}. [${r.score.toFixed(4)} | cos ${r.similarity.toFixed(3)}] ${terminalSafe(r.id, 'visible')}  ${terminalSafe(r.text).replace(/\s+/g, ' ').slice(0, 100)}`,
        );
        for (const l of r.explain!.legs)
          out(`     leg ${l.leg.padEnd(10)} rank ${l.rank}  raw ${l.score.toFixed(4)}`);
        for (const c of r.explain!.contributions)
          out(`     + ${c.component.padEnd(14)} ${c.contribution.toFixed(5)}`);
      });
      if (results.length === 0) out('no results');
    } else if (command === 'import') {
      let added = 0;
      for (const file of positionals) added += await engine.import(await readFile(file, 'utf8'));
      out(`imported ${added} memories into ${db}`);
    } else if (command === 'backup') {
      const [dest] = positionals;
      if (!dest || positionals.length > 1) {
        out(USAGE);
        return 2;
      }
      const { bytes, encrypted } = await engine.backup(dest);
      out(
        `backed up ${db} to ${dest} (${bytes} bytes${encrypted ? ', encrypted under the same passphrase' : ''})`,
      );
    } else if (command === 'stats') {
      out(jsonTerminalSafe(JSON.stringify(await engine.stats(), null, 2)));
    } else {
      out(jsonTerminalSafe((await engine.export({ vectors: values.vectors })).trimEnd()));
    }
    return 0;
  } finally {
    await engine.close();
  }
}
