/**
 * `anamnesis-sync [--db FILE] [--once]` (and `anamnesis sync`, which runs this): syncs a Node file
 * store with the person's other devices, for the terminal's and the MCP server's memory. The
 * server and code come from the environment (`ANAMNESIS_SYNC_URL`, `ANAMNESIS_SYNC_CODE`), never
 * from arguments, which other users can read in the process list.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine, defaultStorePath } from '@anamnesis/engine';
import { AnamnesisError } from '@anamnesis/errors';
import { parseSyncCode } from './code.ts';
import { startNodeSync } from './node.ts';

const USAGE = `usage: anamnesis-sync [--db FILE] [--once]
Syncs the anamnesis store FILE (default ~/.anamnesis/memory.db, the CLI's and the MCP server's)
with your other devices, end-to-end encrypted, through the sync server in ANAMNESIS_SYNC_URL with
the sync code in ANAMNESIS_SYNC_CODE (the notes app's Sync panel or createSyncCode makes one);
ANAMNESIS_PASSPHRASE opens an encrypted store. --once: exchange everything, then exit; without
it, keeps syncing until Ctrl-C.`;

/** Runs with `argv` (without node and script); resolves with the exit code. */
export async function main(
  argv: string[],
  log: (line: string) => void = (l) => process.stderr.write(`${l}\n`),
): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      once: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    log(USAGE);
    return 0;
  }
  const url = process.env.ANAMNESIS_SYNC_URL;
  const code = process.env.ANAMNESIS_SYNC_CODE;
  if (!url || !code)
    throw new AnamnesisError(
      'INVALID_INPUT',
      'set ANAMNESIS_SYNC_URL (the sync server) and ANAMNESIS_SYNC_CODE (the sync code) in the environment',
    );
  const room = parseSyncCode(code);
  const path = resolve(values.db ?? defaultStorePath(homedir()));
  const passphrase = process.env.ANAMNESIS_PASSPHRASE;
  const engine = await createEngine({
    storage: 'file',
    path,
    ...(passphrase ? { encryption: { passphrase } } : {}),
  });
  try {
    const sync = await startNodeSync(engine, path, { url, ...room });
    sync.onApplied((ids) => log(`received ${ids.length} change(s)`));
    try {
      if (values.once) {
        await sync.synced();
        // what arrived with the exchange is applied before the store closes
        await sync.settled();
        const { memories } = await engine.stats();
        log(`synced ${path}: ${memories} memories`);
        return 0;
      }
      sync.onStatus((s) =>
        log(
          s.error
            ? `error ${s.error.code}`
            : s.synced
              ? 'synced'
              : s.connected
                ? 'connected'
                : 'offline',
        ),
      );
      await new Promise<void>((done) => {
        process.once('SIGINT', done);
        process.once('SIGTERM', done);
      });
      return 0;
    } finally {
      await sync.close();
    }
  } finally {
    await engine.close();
  }
}
