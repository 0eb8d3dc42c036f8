/** Command-line arguments without a leading `--` (which `pnpm run script -- --flag` passes on). */
export function cliArgs(): string[] {
  const args = process.argv.slice(2);
  return args[0] === '--' ? args.slice(1) : args;
}
