import { describe, expect, it } from 'vitest';

import { logSlope, renderReport } from '../src/html-report.ts';

describe('the HTML report', () => {
  const html = renderReport({
    title: 'speed <test>',
    intro: ['made by a test'],
    charts: [
      {
        title: 'latency',
        note: 'p50',
        config: {
          type: 'line',
          data: {
            datasets: [
              { label: 'p50 </script>', data: [{ x: 1000, y: 0.5 }] },
              { label: 'p95 <!-- <script> </SCRIPT >', data: [{ x: 1000, y: 0.9 }] },
            ],
          },
          options: { scales: { x: { type: 'logarithmic' } } },
        },
      },
    ],
    tables: [
      {
        title: 'Numbers',
        rows: [
          ['N', 'p50'],
          [1000, 0.5],
        ],
      },
    ],
  });

  it('is one document with the chart library and the data inlined', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain('<canvas id="chart-0">');
    expect(html).toMatch(/Chart\.js v4\.6\.1/); // the library's banner
    const data = /<script id="report-data" type="application\/json">([\s\S]*?)<\/script>/.exec(
      html,
    );
    // the data block is JSON, read back exactly, whatever the labels hold
    const configs = JSON.parse(data![1]!) as {
      data: { datasets: { label: string; data: unknown }[] };
    }[];
    expect(configs[0]!.data.datasets[0]!.data).toEqual([{ x: 1000, y: 0.5 }]);
    expect(configs[0]!.data.datasets.map((d) => d.label)).toEqual([
      'p50 </script>',
      'p95 <!-- <script> </SCRIPT >',
    ]);
    // no `<` in it at all: nothing in it can open a comment or end the element
    expect(data![1]).not.toContain('<');
    expect(html).toContain('speed &lt;test&gt;');
    expect(html).toContain('<td>1000</td>');
    // Chart.js is MIT: its licence travels with its code
    expect(html).toMatch(
      /<details class="notices">[\s\S]*The MIT License \(MIT\)\s+Copyright \(c\) [\d-]+ Chart\.js Contributors[\s\S]*shall be included in all copies[\s\S]*<\/details>/,
    );
  });

  it('loads nothing from anywhere: no src or href, no source map, a CSP that forbids fetches', () => {
    expect(html).not.toMatch(/<(script|img|iframe)[^>]*\ssrc=/i);
    expect(html).not.toMatch(/<link[^>]*href=/i);
    expect(html).not.toMatch(/sourceMappingURL/);
    expect(html).not.toMatch(/\b(fetch|import)\(\s*['"`]https?:/);
    expect(html).toContain("default-src 'none'");
    // a `</script>` inside the data does not end its script element
    expect(html.match(/<\/script>/g)).toHaveLength(3);
  });

  it('fits growth slopes on log-log axes', () => {
    expect(
      logSlope([
        { n: 1000, y: 1 },
        { n: 100_000, y: 100 },
      ]),
    ).toBeCloseTo(1, 10);
    expect(
      logSlope([
        { n: 1000, y: 3 },
        { n: 10_000, y: 3 },
        { n: 100_000, y: 3 },
      ]),
    ).toBeCloseTo(0, 10);
    expect(logSlope([{ n: 1000, y: 3 }])).toBeNull();
    expect(
      logSlope([
        { n: 1000, y: 0 },
        { n: 10_000, y: 3 },
      ]),
    ).toBeNull();
  });
});
