// Sums the JSON reports that `pnpm test` writes under the given folder (Vitest's and
// Playwright's JSON reporters) and prints one line: "N passed, N failed" (", N skipped" when any
// test was skipped or left todo). Counted as failed besides failed tests: a test file that failed
// to load (Vitest) and an error outside any test (Playwright: a spec that threw at import, a web
// server that did not start), a report that `.ci/run` expected and that is missing (its step never
// ran), and each step listed in `failed-steps.txt` (written by `.ci/run`). Exits non-zero when
// anything failed or was skipped.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'test-results';
/** Reports every full run writes; one missing means its step did not run. */
const expected = (
  process.env.EXPECTED_REPORTS ?? 'vitest.json,playwright.json,webkit.json,consumers.json'
)
  .split(',')
  .filter(Boolean);
let passed = 0;
let failed = 0;
let skipped = 0;
const why = [];
let files = [];
try {
  files = readdirSync(dir).filter((f) => f.endsWith('.json'));
} catch {
  // no reports: nothing ran
}
for (const file of files) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  if (typeof report.numPassedTests === 'number') {
    // Vitest (Jest-compatible JSON)
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const suite of report.testResults ?? []) {
      if (suite.status === 'failed' && (suite.assertionResults ?? []).length === 0) {
        failed += 1;
        why.push(`${file}: ${suite.name} did not load`);
      }
    }
  } else if (report.stats && typeof report.stats.expected === 'number') {
    // Playwright
    passed += report.stats.expected + (report.stats.flaky ?? 0);
    failed += report.stats.unexpected;
    skipped += report.stats.skipped ?? 0;
    for (const error of report.errors ?? []) {
      failed += 1;
      why.push(`${file}: ${String(error.message ?? error).split('\n')[0]}`);
    }
  }
}
for (const name of expected) {
  if (!files.includes(name)) {
    failed += 1;
    why.push(`${name} is missing: its tests did not run`);
  }
}
const steps = join(dir, 'failed-steps.txt');
if (existsSync(steps)) {
  for (const step of readFileSync(steps, 'utf8').split('\n').filter(Boolean)) {
    failed += 1;
    why.push(`step failed: ${step}`);
  }
}
for (const line of why) console.error(line);
console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || skipped > 0 ? 1 : 0);
