// Proves that the CI summary line (`scripts/count-results.mjs`) cannot read "0 failed" while
// something did not pass: in a scratch folder it plants, one at a time, each way a run can go
// wrong, with the real Vitest and Playwright writing their real JSON reports, runs the summary on
// the reports, and checks that the line says so and the exit code is non-zero (and that a clean
// run says "0 failed" and exits 0). Prints one row per case; exits 1 if any case is misreported.
//
//   node scripts/plant-ci-failures.mjs [--md]      (--md: the rows as a Markdown table)
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');
const e2e = join(repo, 'e2e');
const summary = join(repo, 'scripts', 'count-results.mjs');
// Inside e2e/, so that the planted specs resolve @playwright/test as the real ones do.
const scratch = mkdtempSync(join(e2e, '.plant-'));

const write = (path, text) => {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
};

/** Vitest on `files` (name → source) in a folder of its own; its JSON report goes to `out`. */
function vitest(name, files, out) {
  const dir = join(scratch, name);
  for (const [file, source] of Object.entries(files)) write(join(dir, file), source);
  write(join(dir, 'vitest.config.mjs'), 'export default { test: { include: ["*.test.mjs"] } };\n');
  spawnSync(
    process.execPath,
    [
      join(repo, 'node_modules', 'vitest', 'vitest.mjs'),
      'run',
      '--root',
      dir,
      '--reporter=json',
      `--outputFile.json=${out}`,
    ],
    { cwd: dir, stdio: 'ignore' },
  );
}

/** Playwright on `files` (no browser: the tests use no page); its JSON report goes to `out`. */
function playwright(name, files, out) {
  const dir = join(scratch, name);
  for (const [file, source] of Object.entries(files)) write(join(dir, file), source);
  const config = join(dir, 'playwright.config.mjs');
  write(
    config,
    `export default { testDir: ${JSON.stringify(dir)}, reporter: [['json', { outputFile: ${JSON.stringify(out)} }]] };\n`,
  );
  spawnSync('pnpm', ['exec', 'playwright', 'test', '-c', config], { cwd: e2e, stdio: 'ignore' });
}

const PASSING_UNIT = {
  'ok.test.mjs': 'import { it, expect } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\n',
};
const PASSING_BROWSER = {
  'ok.spec.mjs':
    'import { test, expect } from "@playwright/test";\ntest("adds", () => expect(1 + 1).toBe(2));\n',
};

/** Each case: what is planted, and whether the summary must report a failure. */
const cases = [
  { name: 'nothing planted (every report there, every test passed)', fails: false },
  {
    name: 'a Vitest file that throws at import',
    fails: true,
    unit: { 'broken.test.mjs': 'throw new Error("planted: cannot load");\n' },
  },
  {
    name: 'a skipped Vitest test',
    fails: true,
    unit: { 'skip.test.mjs': 'import { it } from "vitest";\nit.skip("not run", () => {});\n' },
  },
  {
    name: 'a todo Vitest test',
    fails: true,
    unit: { 'todo.test.mjs': 'import { it } from "vitest";\nit.todo("some day");\n' },
  },
  {
    name: 'a failing Vitest test',
    fails: true,
    unit: {
      'fail.test.mjs':
        'import { it, expect } from "vitest";\nit("fails", () => expect(1).toBe(2));\n',
    },
  },
  {
    name: 'a Playwright spec that throws at import',
    fails: true,
    browser: { 'broken.spec.mjs': 'throw new Error("planted: cannot load");\n' },
  },
  {
    name: 'a skipped Playwright test',
    fails: true,
    browser: {
      'skip.spec.mjs':
        'import { test } from "@playwright/test";\ntest.skip("not run", () => {});\n',
    },
  },
  { name: 'a report missing (its step never ran)', fails: true, missing: 'consumers.json' },
  {
    name: 'a failed step (lint failed: only the steps after it reported)',
    fails: true,
    step: 'pnpm run lint',
  },
];

const rows = [];
let misreported = 0;
try {
  for (const [i, c] of cases.entries()) {
    const results = join(scratch, `results-${i}`);
    mkdirSync(results, { recursive: true });
    vitest(`unit-${i}`, { ...PASSING_UNIT, ...c.unit }, join(results, 'vitest.json'));
    playwright(
      `browser-${i}`,
      { ...PASSING_BROWSER, ...c.browser },
      join(results, 'playwright.json'),
    );
    if (c.missing !== 'consumers.json')
      playwright(`consumers-${i}`, PASSING_BROWSER, join(results, 'consumers.json'));
    if (c.step) write(join(results, 'failed-steps.txt'), `${c.step}\n`);
    // The scratch run writes the three kinds of report (a Vitest one, two Playwright ones).
    const run = spawnSync(process.execPath, [summary, results], {
      encoding: 'utf8',
      env: { ...process.env, EXPECTED_REPORTS: 'vitest.json,playwright.json,consumers.json' },
    });
    const line = run.stdout.trim().split('\n').at(-1) ?? '';
    const reported = run.status !== 0 && !/^\d+ passed, 0 failed$/.test(line);
    const ok = reported === c.fails;
    if (!ok) misreported++;
    rows.push({
      name: c.name,
      line,
      exit: run.status,
      why: run.stderr.trim().split('\n').filter(Boolean).join('; '),
      ok,
    });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (process.argv.includes('--md')) {
  console.log('| planted | summary line | exit | why (stderr) | as it should |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const r of rows)
    console.log(
      `| ${r.name} | \`${r.line}\` | ${r.exit} | ${r.why.replaceAll('|', '\\|') || '—'} | ${r.ok ? 'yes' : '**NO**'} |`,
    );
} else {
  for (const r of rows)
    console.log(
      `${r.ok ? 'ok  ' : 'BAD '} ${r.name}: "${r.line}" (exit ${r.exit})${r.why ? ` — ${r.why}` : ''}`,
    );
}
console.log(
  misreported === 0
    ? `plant-ci-failures: all ${rows.length} cases reported as they should be`
    : `plant-ci-failures: ${misreported} of ${rows.length} cases MISREPORTED`,
);
process.exit(misreported === 0 ? 0 : 1);
