#!/usr/bin/env node
/**
 * The `anamnesis-sync` executable (`bin` of `@anamnesis/sync`): runs {@link main} on the process
 * arguments. Built to `dist/bin.js`, plain JavaScript: no compiler at run time.
 */
import { main } from './main.ts';

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  const error = e as { code?: string; message?: string };
  process.stderr.write(
    `${error?.code ? `${error.code}: ${error.message}` : e instanceof Error ? (e.stack ?? String(e)) : String(e)}\n`,
  );
  process.exitCode = 1;
}
