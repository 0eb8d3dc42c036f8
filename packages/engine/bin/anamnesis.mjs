#!/usr/bin/env node
// Runs the TypeScript CLI through tsx, so the package needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
try {
  process.exitCode = await main(process.argv.slice(2));
} catch (e) {
  console.error(e?.code ? `${e.code}: ${e.message}` : e);
  process.exitCode = 1;
}
