#!/usr/bin/env node
/**
 * The `anamnesis` executable (`bin` of `@anamnesis/engine`): runs {@link main} on the process
 * arguments. Built to `dist/bin.js`, plain JavaScript: no compiler at run time.
 */
import { main } from './cli/cli.ts';
import { terminalSafe } from './cli/terminal.ts';

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  const error = e as { code?: string; message?: string };
  // a message can quote stored or input text: printed without terminal control characters
  console.error(
    terminalSafe(
      error?.code
        ? `${error.code}: ${error.message}`
        : e instanceof Error
          ? (e.stack ?? String(e))
          : String(e),
    ),
  );
  process.exitCode = 1;
}
