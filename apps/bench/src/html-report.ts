/**
 * One self-contained HTML file of charts (`bench:speed --html FILE`, `bench:locomo --html FILE`):
 * Chart.js 4 (its UMD build) and the data are inlined, so opening the file requests nothing from
 * any origin. Each chart is a Chart.js configuration given as plain JSON; options that need code
 * (log-axis tick labels) are set by the small script of the page.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A Chart.js configuration (type, data, options) as plain JSON. */
export interface ChartSpec {
  title: string;
  /** A sentence under the chart: what it shows and how it was measured. */
  note?: string;
  config: {
    type: 'line' | 'bar' | 'scatter';
    data: unknown;
    options?: Record<string, unknown>;
  };
}

/** A report: a title, lines of context, tables and charts. */
export interface Report {
  title: string;
  /** Paragraphs of plain text (machine, command, date). */
  intro: string[];
  charts: ChartSpec[];
  /** Tables of the numbers behind the charts: a header row, then rows. */
  tables?: { title: string; rows: (string | number)[][] }[];
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Script text safe inside a `<script>` element (no `</script`, no `<!--`, which would start a
 * comment that swallows the element's end). */
const scriptSafe = (s: string) => s.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\x21--');

/**
 * A value as JSON safe inside a `<script type="application/json">` element: every `<` written as
 * `\u003c` (a `<` can only stand inside a JSON string, where the escape means the same), so no
 * `</script>` or `<!--` can appear; `JSON.parse` of the element's text gives the value back.
 */
export const jsonScriptSafe = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** Chart.js's licence (LICENSE.md of its package), shipped in the report with its code. */
function chartJsLicence(): string {
  const require = createRequire(import.meta.url);
  return readFileSync(join(dirname(require.resolve('chart.js')), '..', 'LICENSE.md'), 'utf8');
}

/** Chart.js's UMD build, without its source-map comment (nothing to look up when opened). */
function chartJs(): string {
  const require = createRequire(import.meta.url);
  // the package's exports name no UMD file: it sits beside the CommonJS entry, in dist/
  const code = readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
  return code.replace(/\n?\/\/# sourceMappingURL=\S+\s*$/, '\n');
}

/** The report as one HTML document. */
export function renderReport(report: Report): string {
  const tables = (report.tables ?? [])
    .map(
      (t) =>
        `<h2>${escapeHtml(t.title)}</h2><table>${t.rows
          .map(
            (row, i) =>
              `<tr>${row.map((cell) => (i === 0 ? `<th>${escapeHtml(String(cell))}</th>` : `<td>${escapeHtml(String(cell))}</td>`)).join('')}</tr>`,
          )
          .join('')}</table>`,
    )
    .join('\n');
  const charts = report.charts
    .map(
      (c, i) =>
        `<section><h2>${escapeHtml(c.title)}</h2>${c.note ? `<p class="note">${escapeHtml(c.note)}</p>` : ''}<div class="chart"><canvas id="chart-${i}"></canvas></div></section>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(report.title)}</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px auto; max-width: 1000px; color: #222; }
h1 { font-size: 22px; } h2 { font-size: 16px; margin-top: 28px; }
.chart { position: relative; height: 380px; }
.note { color: #555; margin: 4px 0 8px; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: right; }
th { background: #f3f3f3; }
.notices { margin-top: 28px; color: #555; } .notices pre { white-space: pre-wrap; }
</style>
</head>
<body>
<h1>${escapeHtml(report.title)}</h1>
${report.intro.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${charts}
${tables}
<details class="notices"><summary>Third-party notices</summary><p>This page carries Chart.js (its UMD build, inlined); its licence:</p><pre>${escapeHtml(chartJsLicence())}</pre></details>
<script>${scriptSafe(chartJs())}</script>
<script id="report-data" type="application/json">${jsonScriptSafe(report.charts.map((c) => c.config))}</script>
<script>
const configs = JSON.parse(document.getElementById('report-data').textContent);
const plain = (v) => (Math.abs(v) >= 1000 ? v.toLocaleString('en') : String(+v.toPrecision(3)));
configs.forEach((config, i) => {
  config.options = config.options || {};
  config.options.animation = false;
  config.options.maintainAspectRatio = false;
  for (const scale of Object.values(config.options.scales || {})) {
    if (scale.type === 'logarithmic') {
      // label only 1, 1.5, 2, 3 and 5 times a power of ten
      scale.ticks = Object.assign({}, scale.ticks, {
        callback: (v) => ([1, 1.5, 2, 3, 5].includes(+(v / Math.pow(10, Math.floor(Math.log10(v)))).toFixed(6)) ? plain(v) : ''),
      });
    }
  }
  new Chart(document.getElementById('chart-' + i), config);
});
document.body.dataset.charts = String(configs.length);
</script>
</body>
</html>
`;
}

/** Writes the report to `file`. */
export function writeReport(file: string, report: Report): void {
  writeFileSync(file, renderReport(report));
}

/**
 * The growth slope of y against n on log-log axes (least squares): 1 is linear, 0 constant.
 * Null with fewer than two sizes or a non-positive value.
 */
export function logSlope(points: readonly { n: number; y: number }[]): number | null {
  const ok = points.filter((p) => p.n > 0 && p.y > 0);
  if (ok.length < 2 || ok.length !== points.length) return null;
  const xs = ok.map((p) => Math.log(p.n));
  const ys = ok.map((p) => Math.log(p.y));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  xs.forEach((x, i) => {
    num += (x - mx) * (ys[i]! - my);
    den += (x - mx) ** 2;
  });
  return den === 0 ? null : num / den;
}
