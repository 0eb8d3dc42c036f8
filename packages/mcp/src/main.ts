/**
 * `anamnesis-mcp [--db FILE]` (and `anamnesis mcp`, which runs this): the MCP server over stdio on
 * a file store. stdout carries only the protocol; everything else goes to stderr. The store opens
 * while the client initializes, and is closed when stdin ends or on SIGTERM / SIGINT.
 */
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  createEngine,
  defaultStorePath as defaultStoreIn,
  DEFAULT_STORE_PATH,
  type Engine,
} from '@anamnesis/engine';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { parseSyncCode, type Sync } from '@anamnesis/sync';
import { startNodeSync } from '@anamnesis/sync/node';

import { createMemoryServer, DEFAULT_MAX_TEXT_CHARS, DEFAULT_TOKEN_BUDGET } from './server.ts';

/**
 * The store when no `--db` is given: `~/.anamnesis/memory.db`, the engine's `defaultStorePath`,
 * which the `anamnesis` CLI uses too (one memory for the assistant and the terminal).
 */
export function defaultStorePath(): string {
  return defaultStoreIn(homedir());
}

const USAGE = `usage: anamnesis-mcp [--db FILE] [--token-budget N] [--max-text-chars N]
An MCP server over stdio (for a desktop assistant's configuration) on the anamnesis store FILE
(default ${DEFAULT_STORE_PATH}, as the anamnesis CLI's; give an absolute path: assistants start
servers in any folder).
Tools: remember, recall, forget, list_recent; prompt what_do_you_remember; resource
anamnesis://about/{topic}. --token-budget: recall's default budget in estimated tokens (default
${DEFAULT_TOKEN_BUDGET}); --max-text-chars: longest text remember takes (default ${DEFAULT_MAX_TEXT_CHARS}).
An encrypted store: set ANAMNESIS_PASSPHRASE in the server's environment (npm install
better-sqlite3-multiple-ciphers); a new store is then created encrypted.
Sync with the person's other devices: set ANAMNESIS_SYNC_URL (the Yjs websocket server) and
ANAMNESIS_SYNC_CODE (the sync code the notes app or createSyncCode made); the store then syncs
while the server runs (end-to-end encrypted; @anamnesis/sync).`;

/**
 * Runs the server with `argv` (without node and script) until stdin ends or a SIGTERM / SIGINT;
 * resolves with the exit code once the store is closed. `--help` prints the usage to stderr.
 */
export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      'token-budget': { type: 'string' },
      'max-text-chars': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.error(USAGE);
    return 0;
  }
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // Whatever a dependency prints goes to stderr: stdout is the protocol's.
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;

  const path = resolve(values.db ?? defaultStorePath());
  const engine: Promise<Engine> = mkdir(dirname(path), { recursive: true }).then(() =>
    createEngine({
      storage: 'file',
      path,
      // a store written with an earlier default model is re-embedded with this one, once
      onModelMismatch: 'reembed',
      // an encrypted store: its passphrase from the environment, never from the command line
      ...(process.env.ANAMNESIS_PASSPHRASE
        ? { encryption: { passphrase: process.env.ANAMNESIS_PASSPHRASE } }
        : {}),
    }),
  );
  engine.catch((e: unknown) => {
    const error = e as { code?: string; message?: string };
    log(
      `anamnesis-mcp: the store ${path} did not open: ${error?.code ?? ''} ${error?.message ?? String(e)}`,
    );
  });
  // Sync while the server runs, when the environment names a sync server and code.
  const sync = engine.then((e) => startSyncFromEnv(e, path, log));
  sync.catch((e: unknown) => log(`anamnesis-mcp: sync did not start: ${String(e)}`));
  const server = createMemoryServer(engine, {
    ...(values['token-budget'] === undefined
      ? {}
      : { tokenBudget: Number(values['token-budget']) }),
    ...(values['max-text-chars'] === undefined
      ? {}
      : { maxTextChars: Number(values['max-text-chars']) }),
    log,
  });
  const transport = new StdioServerTransport();

  let done: (code: number) => void = () => {};
  const finished = new Promise<number>((r) => (done = r));
  let closing = false;
  const shutdown = async (why: string): Promise<void> => {
    if (closing) return;
    closing = true;
    let code = 0;
    try {
      await server.close();
    } catch (e) {
      log(`anamnesis-mcp: closing the transport: ${String(e)}`);
    }
    await (await sync.catch(() => undefined))?.close();
    const opened = await engine.then(
      (e) => e,
      () => undefined, // logged when it failed; nothing to close, but not a clean run
    );
    if (opened === undefined) code = 1;
    else {
      try {
        await opened.close();
      } catch (e) {
        code = 1;
        log(`anamnesis-mcp: closing the store after ${why}: ${String(e)}`);
      }
    }
    process.stdin.off('end', onEnd);
    process.stdin.off('close', onEnd);
    process.off('SIGTERM', onTerm);
    process.off('SIGINT', onTerm);
    done(code);
  };
  const onEnd = () => void shutdown('stdin ended');
  const onTerm = () => void shutdown('signal');
  process.stdin.once('end', onEnd);
  process.stdin.once('close', onEnd);
  process.once('SIGTERM', onTerm);
  process.once('SIGINT', onTerm);
  await server.connect(transport);
  log(`anamnesis-mcp: serving ${path} over stdio`);
  const code = await finished;
  process.stdin.destroy();
  return code;
}

/**
 * Starts syncing `engine` when `ANAMNESIS_SYNC_URL` and `ANAMNESIS_SYNC_CODE` are set (neither is
 * ever a command-line argument); its status changes go to the log. Undefined when they are not.
 */
async function startSyncFromEnv(
  engine: Engine,
  path: string,
  log: (line: string) => void,
): Promise<Sync | undefined> {
  const url = process.env.ANAMNESIS_SYNC_URL;
  const code = process.env.ANAMNESIS_SYNC_CODE;
  if (!url || !code) return undefined;
  const sync = await startNodeSync(engine, path, { url, ...parseSyncCode(code) });
  let last = '';
  sync.onStatus((s) => {
    const line = s.error
      ? `error ${s.error.code}: ${s.error.message}`
      : s.synced
        ? 'synced'
        : s.connected
          ? 'connected'
          : 'offline';
    if (line !== last) log(`anamnesis-mcp: sync ${line}`);
    last = line;
  });
  return sync;
}
