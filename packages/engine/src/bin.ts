#!/usr/bin/env node
/**
 * The `anamnesis` executable (`bin` of `@anamnesis/engine`): runs {@link main} on the process
 * arguments. Built to `dist/bin.js`, plain JavaScript: no compiler at run time.
 */
import { main } from './cli.ts';

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  const error = e as { code?: string; message?: string };
  console.error(error?.code ? `${error.code}: ${error.message}` : e);
  process.exitCode = 1;
}
