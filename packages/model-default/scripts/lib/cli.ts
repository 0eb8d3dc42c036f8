/**
 * Command-line arguments without the bare `--` that `pnpm run script -- --flag` passes on (also
 * after a script's own flags, as in `verify:default -- --cache DIR`).
 */
export function cliArgs(): string[] {
  return process.argv.slice(2).filter((a) => a !== '--');
}
