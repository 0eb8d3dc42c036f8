/**
 * docs/measurements.md is written by the benchmarks, never by hand: a bench run with `--docs`
 * replaces its own section, between `<!-- measured:<id> begin -->` and `<!-- measured:<id> end -->`,
 * with the command as typed, the machine (cores, CPU, Node, the browser where one ran, the load
 * average), the date, the commit, and its tables. Sections of benches not run keep what their
 * last run wrote.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';

export const MEASUREMENTS_FILE = fileURLToPath(
  new URL('../../../docs/measurements.md', import.meta.url),
);

/** The sections, in the file's order: id → the bench command that writes it. */
export const SECTIONS = {
  quality: 'bench:quality',
  locomo: 'bench:locomo',
  engine: 'bench:engine',
  'engine-tfidf': 'bench:engine',
  embed: 'bench:embed',
  speed: 'bench:speed',
  size: 'bench:size',
} as const;
export type SectionId = keyof typeof SECTIONS;

/** A Markdown table; the first row is the header. */
export function markdownTable(rows: readonly (readonly string[])[]): string {
  const [header, ...body] = rows;
  if (!header) return '';
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...body.map(line)].join('\n');
}

/** The command as the person typed it: `pnpm bench:x -- <args>`, without `--docs`. */
export function commandLine(script: string, argv = process.argv.slice(2)): string {
  const args = argv.filter((a) => a !== '--' && a !== '--docs');
  return `pnpm ${script}${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`;
}

function commit(): string {
  try {
    const root = fileURLToPath(new URL('../../../', import.meta.url));
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root })
      .toString()
      .trim();
    const dirty =
      // what the numbers depend on: tracked files but the docs (this file among them)
      execFileSync(
        'git',
        ['status', '--porcelain', '--untracked-files=no', '--', '.', ':!docs', ':!*.md'],
        { cwd: root },
      )
        .toString()
        .trim() !== '';
    return dirty ? `${head} with uncommitted changes` : head;
  } catch {
    return 'unknown';
  }
}

/** The machine line of a section: cores, CPU, Node, browser, load average. */
export function machineLine(browser?: string, load?: string): string {
  const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const avg =
    load ??
    loadavg()
      .map((x) => x.toFixed(1))
      .join(' / ');
  return (
    `${availableParallelism()} cores (nproc), ${cpu}, Node ${process.version}, ` +
    `${browser ?? 'no browser'}; load average ${avg}`
  );
}

export interface Section {
  id: SectionId;
  title: string;
  /** What was run, as typed (`commandLine`). */
  command: string;
  /** The browser and its version, where one ran. */
  browser?: string;
  /** The load average to show, when the bench measured it itself (before and after). */
  load?: string;
  /** Markdown: the tables and what they mean. */
  body: string;
}

/** Replaces (or adds, at the end) the section's block in docs/measurements.md. */
export function writeMeasurements(section: Section): void {
  const begin = `<!-- measured:${section.id} begin -->`;
  const end = `<!-- measured:${section.id} end -->`;
  const block = [
    begin,
    '',
    `## ${section.title}`,
    '',
    `Written by \`${section.command}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit()}.`,
    `Machine: ${machineLine(section.browser, section.load)}.`,
    '',
    section.body.trim(),
    '',
    end,
  ].join('\n');
  const text = existsSync(MEASUREMENTS_FILE) ? readFileSync(MEASUREMENTS_FILE, 'utf8') : '';
  const at = text.indexOf(begin);
  const until = text.indexOf(end);
  const next =
    at >= 0 && until > at
      ? `${text.slice(0, at)}${block}${text.slice(until + end.length)}`
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(MEASUREMENTS_FILE, next);
  console.log(`wrote the "${section.id}" section of docs/measurements.md`);
}
