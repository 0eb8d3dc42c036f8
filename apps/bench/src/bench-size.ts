/**
 * `pnpm bench:size -- [--repo DIR] [--apps notes,extension,example] [--no-build] [--no-browser]
 * [--runs N] [--down MBIT] [--latency MS] [--server etag|plain] [--json] [--html FILE] [--docs]`: what the apps cost a person on the default path. Builds (unless `--no-build`) the notes app, the extension
 * and the example app of the checkout at `--repo` (default: this one; point it at another worktree
 * to measure another commit) with their own build scripts, and prints per app:
 *
 * - disk: every file of the build (`dist/`), in bytes;
 * - first visit: the files a first visit downloads (the notes app: what its service worker
 *   precaches, plus anything else the page asked for; the example app: what the page asked for;
 *   the extension: its zip), as a static server sends them: gzip and brotli at level 6 for text,
 *   JavaScript, JSON and wasm, other files as they are (`static-server.ts`); and the bytes the
 *   bench's server actually sent during the timed visit (brotli: Chromium asks for it), with the
 *   files it sent whole more than once;
 * - offline: what is kept for offline use (the notes app: its precache; the extension: everything
 *   it installs, unpacked; the example app has no service worker);
 * - first search (notes, example; unless `--no-browser`): headless Chromium on a fresh profile under
 *   CDP network emulation (10 Mbit/s down, 40 ms latency), from the navigation's start to the first
 *   result painted, the page writing one note and searching its words as soon as it takes input
 *   (`first-search.ts`); for the notes app also the model ready (search by meaning), everything
 *   cached for offline use, and a repeat visit offline.
 *
 * `--runs N` times each app N times (fresh profiles) and reports medians; `--down` (Mbit/s, default
 * 10; 0 turns emulation off, to see what the machine alone costs) and `--latency` (ms, default 40)
 * set the network. `--server etag` (the default) serves the build with `Cache-Control: no-cache`
 * and an ETag (a repeat request is a 304); `--server plain` as many plain static servers do, with
 * neither (no ETag, no Last-Modified: a repeat request downloads the file again).
 *
 * Targets (reported, never failing the run): notes first visit ≤ 8 MB transferred and first search
 * ≤ 3 s; extension ≤ 8 MB unpacked and ≤ 4 MB zip. With `--json` the last line printed is one
 * JSON object; `--html FILE` also writes the figures as one self-contained HTML file.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import { CHROMIUM_PATH } from '../../../e2e/chromium.ts';
import { bytesOf, fileSizes, precached, sum, type FileSize, type SizeSum } from './app-sizes.ts';
import {
  TEN_MBIT,
  timeVisits,
  type AppKind,
  type Network,
  type VisitTimes,
} from './first-search.ts';
import { writeReport } from './html-report.ts';
import { commandLine, markdownTable, writeMeasurements } from './measurements.ts';
import { serveStatic } from './static-server.ts';

const { values } = parseArgs({
  args: process.argv.slice(2).filter((a) => a !== '--'),
  options: {
    repo: { type: 'string' },
    'no-build': { type: 'boolean', default: false },
    'no-browser': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    html: { type: 'string' },
    docs: { type: 'boolean', default: false },
    runs: { type: 'string', default: '1' },
    apps: { type: 'string', default: 'notes,extension,example' },
    down: { type: 'string', default: String(TEN_MBIT.downBitsPerS / 1e6) },
    latency: { type: 'string', default: String(TEN_MBIT.latencyMs) },
    server: { type: 'string', default: 'etag' },
  },
});
if (values.server !== 'etag' && values.server !== 'plain')
  throw new Error('--server: etag (ETag and no-cache) or plain (no validators)');
/** Whether the bench's server sends validators (`--server etag`) or none (`--server plain`). */
const validators = values.server === 'etag';
const serverText = validators
  ? 'a server sending ETag and Cache-Control: no-cache'
  : 'a plain server (no ETag, Last-Modified or Cache-Control)';
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs: a positive integer');
/** The emulated network (`--down 0`: none, to see what the machine alone costs). */
const network: Network = {
  downBitsPerS: Number(values.down) * 1e6,
  upBitsPerS: (Number(values.down) * 1e6) / 2,
  latencyMs: Number(values.latency),
};
if (!(network.downBitsPerS >= 0) || !(network.latencyMs >= 0))
  throw new Error('--down (Mbit/s) and --latency (ms): non-negative numbers');
const networkText =
  network.downBitsPerS > 0
    ? `${network.downBitsPerS / 1e6} Mbit/s down, ${network.latencyMs} ms latency`
    : 'no network emulation';
const repo = resolve(values.repo ?? fileURLToPath(new URL('../../../', import.meta.url)));
const log = (line: string) => {
  if (!values.json) console.error(line);
};

const TARGETS = {
  notesFirstVisitBytes: 8e6,
  notesFirstSearchMs: 3000,
  extensionUnpackedBytes: 8e6,
  extensionZipBytes: 4e6,
};

interface AppSpec {
  name: 'notes' | 'extension' | 'example';
  pkg: string;
  dir: string;
  kind?: AppKind;
  zip?: string;
}

const APPS: AppSpec[] = [
  { name: 'notes', pkg: '@anamnesis/notes', dir: 'apps/notes', kind: 'notes' },
  {
    name: 'extension',
    pkg: '@anamnesis/extension',
    dir: 'apps/extension',
    zip: 'release/anamnesis-extension.zip',
  },
  { name: 'example', pkg: '@anamnesis/example', dir: 'apps/example', kind: 'example' },
];

/** One app's figures (bytes; ms from the navigation's start). */
interface AppResult {
  app: string;
  disk: SizeSum;
  first_visit: SizeSum & {
    source: string;
    served_bytes: number | null;
    /** Files the server sent whole more than once during the first visit, with the count. */
    served_twice: [string, number][] | null;
  };
  offline: { raw: number; files: number; source: string } | null;
  zip_bytes?: number;
  /** The largest files of the first visit (path, bytes on disk, brotli). */
  largest: { path: string; raw: number; br: number }[];
  first?: Omit<VisitTimes, 'requested'> & { onnx_requests: number };
  offline_visit?: Omit<VisitTimes, 'requested'> | null;
}

/** A file only an ONNX Runtime path needs. */
const ONNX_FILE = /(^|\/)ort\/|ort-wasm|onnxruntime|transformers/;

async function measure(spec: AppSpec): Promise<AppResult> {
  const root = join(repo, spec.dir);
  const dist = join(root, 'dist');
  if (!values['no-build']) {
    log(`building ${spec.name} in ${repo}…`);
    execFileSync('pnpm', ['--filter', spec.pkg, 'run', 'build'], {
      cwd: repo,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  if (!existsSync(dist)) throw new Error(`${dist} is missing: build it, or drop --no-build`);
  log(`sizing ${spec.name}…`);
  const files = fileSizes(dist);
  const disk = sum(files);

  let visits: Awaited<ReturnType<typeof timeVisits>> | undefined;
  let served: number | null = null;
  let servedTwice: [string, number][] | null = null;
  if (spec.kind && !values['no-browser']) {
    const all: Awaited<ReturnType<typeof timeVisits>>[] = [];
    for (let i = 0; i < runs; i++) {
      log(`timing ${spec.name} in Chromium (${networkText}), run ${i + 1} of ${runs}…`);
      const server = await serveStatic(dist, { validators });
      try {
        // what the first visit cost on the wire (before the repeat visit, whose service worker
        // update check still reaches the server)
        const firstVisitDone = () => {
          served = server.sent.bytes;
          servedTwice = [...server.bodies].filter(([, n]) => n > 1).sort();
        };
        all.push(await timeVisits(server.url, spec.kind, network, undefined, firstVisitDone));
      } finally {
        await server.close();
      }
    }
    visits = medianVisits(all);
  }
  const known = new Set(files.map((f) => f.path));
  const requested = new Set(
    (visits?.first.requested ?? []).map((p) => p.replace(/^\//, '') || 'index.html'),
  );

  let firstVisit: AppResult['first_visit'];
  let offline: AppResult['offline'] = null;
  let zipBytes: number | undefined;
  let picked: (path: string) => boolean;
  if (spec.zip) {
    zipBytes = bytesOf(join(root, spec.zip));
    picked = () => true;
    firstVisit = {
      files: files.length,
      raw: zipBytes,
      gzip: zipBytes,
      br: zipBytes,
      source: `the zip (${spec.zip})`,
      served_bytes: null,
      served_twice: null,
    };
    offline = { raw: disk.raw, files: disk.files, source: 'installed unpacked' };
  } else {
    const precache = new Set(precached(dist));
    // Without a browser run, an app without a service worker counts every file.
    picked =
      precache.size === 0 && !visits
        ? () => true
        : (p) => precache.has(p) || (requested.has(p) && known.has(p));
    firstVisit = {
      ...sum(files, picked),
      source:
        precache.size > 0
          ? 'the service worker precache and the page requests'
          : visits
            ? 'the page requests'
            : 'every file (no browser run)',
      served_bytes: served,
      served_twice: servedTwice,
    };
    if (precache.size > 0) {
      const cached = sum(files, (p) => precache.has(p));
      offline = { raw: cached.raw, files: cached.files, source: 'service worker precache' };
    }
  }
  const largest = files
    .filter((f: FileSize) => picked(f.path))
    .sort((a, b) => b.raw - a.raw)
    .slice(0, 5)
    .map(({ path, raw, br }) => ({ path, raw, br }));
  const strip = (v: VisitTimes) => {
    const { requested: _r, ...rest } = v;
    return rest;
  };
  return {
    app: spec.name,
    disk,
    first_visit: firstVisit,
    offline,
    ...(zipBytes !== undefined ? { zip_bytes: zipBytes } : {}),
    largest,
    ...(visits
      ? {
          first: {
            ...strip(visits.first),
            onnx_requests: visits.first.requested.filter((p) => ONNX_FILE.test(p)).length,
          },
          offline_visit: visits.offline ? strip(visits.offline) : null,
        }
      : {}),
  };
}

/** The median of each time over runs (the first run's requests). */
function medianVisits(
  all: Awaited<ReturnType<typeof timeVisits>>[],
): Awaited<ReturnType<typeof timeVisits>> {
  const median = (xs: (number | null)[]) => {
    const ok = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
    return ok.length === 0 ? null : ok[Math.floor((ok.length - 1) / 2)]!;
  };
  const of = (visits: VisitTimes[]): VisitTimes => ({
    interactive_ms: median(visits.map((v) => v.interactive_ms)),
    store_ms: median(visits.map((v) => v.store_ms)),
    first_search_ms: median(visits.map((v) => v.first_search_ms)),
    model_ms: median(visits.map((v) => v.model_ms)),
    offline_ready_ms: median(visits.map((v) => v.offline_ready_ms)),
    requested: visits[0]!.requested,
  });
  const offline = all.map((a) => a.offline).filter((o): o is VisitTimes => o !== null);
  return {
    first: of(all.map((a) => a.first)),
    offline: offline.length > 0 ? of(offline) : null,
  };
}

const mb = (n: number | null | undefined) => (n == null ? 'n/a' : `${(n / 1e6).toFixed(2)} MB`);
const ms = (n: number | null | undefined) => (n == null ? 'n/a' : `${Math.round(n)} ms`);
const met = (ok: boolean) => (ok ? 'met' : 'MISSED');

/** "Chromium 156.0.8078.108" (the Debian wrapper's own complaints on stderr dropped). */
function chromiumVersion(): string {
  const out = execFileSync(CHROMIUM_PATH, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return /Chromium [\d.]+/.exec(out.toString())?.[0] ?? out.toString().trim();
}

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repo })
    .toString()
    .trim();
  const results: AppResult[] = [];
  const names = values.apps.split(',');
  const unknown = names.filter((n) => !APPS.some((a) => a.name === n));
  if (unknown.length > 0) throw new Error(`--apps: unknown ${unknown.join(', ')}`);
  for (const spec of APPS.filter((a) => names.includes(a.name))) results.push(await measure(spec));

  console.log(
    `bench:size of ${repo} at ${commit} (MB = 10^6 bytes; gzip and brotli at level 6, as a static server sends text, JS, JSON and wasm)`,
  );
  const header = [
    'app',
    'disk',
    'files',
    'first visit raw',
    'gzip',
    'brotli',
    'served',
    'offline cache',
    'interactive',
    'store open',
    'first search',
    'model ready',
    'offline ready',
    'repeat offline: search',
  ];
  const rows = results.map((r) => [
    r.app,
    mb(r.disk.raw),
    String(r.disk.files),
    mb(r.first_visit.raw),
    mb(r.first_visit.gzip),
    mb(r.first_visit.br),
    mb(r.first_visit.served_bytes),
    r.offline ? mb(r.offline.raw) : 'none',
    ms(r.first?.interactive_ms),
    ms(r.first?.store_ms),
    ms(r.first?.first_search_ms),
    ms(r.first?.model_ms),
    ms(r.first?.offline_ready_ms),
    r.offline_visit ? ms(r.offline_visit.first_search_ms) : 'n/a',
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((row) => row[c]!.length)));
  for (const row of [header, ...rows])
    console.log(row.map((cell, c) => cell.padStart(widths[c]!)).join('  '));
  for (const r of results) {
    console.log(
      `${r.app}: first visit = ${r.first_visit.source}, ${r.first_visit.files} files; largest: ` +
        r.largest.map((f) => `${f.path} ${mb(f.raw)} (br ${mb(f.br)})`).join(', '),
    );
    if (r.first) {
      console.log(
        `${r.app}: ONNX Runtime / transformers.js requests on the first visit: ${r.first.onnx_requests}`,
      );
    }
    if (r.first_visit.served_twice) {
      const twice = r.first_visit.served_twice;
      console.log(
        `${r.app}: files sent whole more than once by ${serverText}: ` +
          (twice.length === 0 ? 'none' : twice.map(([f, n]) => `${f} ×${n}`).join(', ')),
      );
    }
  }
  console.log(
    `served: bytes on the wire from ${serverText}, the first visit of the last run; ` +
      `times: headless Chromium, fresh profile, CDP network emulation: ${networkText}; median of ${runs} run(s); ` +
      `ms from the navigation's start; first search = a note written and its words ` +
      'searched as soon as the page takes input, to the first result painted; model ready = search by meaning; ' +
      'offline ready = the service worker controls the page (its precache complete)',
  );
  const notes = results.find((r) => r.app === 'notes');
  const ext = results.find((r) => r.app === 'extension');
  if (notes && ext)
    console.log(
      `targets: notes first visit ≤ 8 MB: gzip ${mb(notes.first_visit.gzip)} ${met(notes.first_visit.gzip <= TARGETS.notesFirstVisitBytes)}, ` +
        `brotli ${mb(notes.first_visit.br)} ${met(notes.first_visit.br <= TARGETS.notesFirstVisitBytes)}; ` +
        `notes first search ≤ 3 s: ${notes.first ? `${ms(notes.first.first_search_ms)} ${met((notes.first.first_search_ms ?? Infinity) <= TARGETS.notesFirstSearchMs)}` : 'not measured'}; ` +
        `extension ≤ 8 MB unpacked: ${mb(ext.disk.raw)} ${met(ext.disk.raw <= TARGETS.extensionUnpackedBytes)}; ` +
        `extension zip ≤ 4 MB: ${mb(ext.zip_bytes)} ${met((ext.zip_bytes ?? Infinity) <= TARGETS.extensionZipBytes)}`,
    );
  if (values.docs)
    writeMeasurements({
      id: 'size',
      title: 'Size and first visit',
      command: commandLine('bench:size'),
      ...(values['no-browser']
        ? {}
        : {
            browser: `${chromiumVersion()} headless`,
          }),
      body: [
        `The apps of ${values.repo === undefined ? 'this checkout' : repo} at ${commit}. MB = 10^6 bytes; gzip and brotli at level 6, as a static server sends text, JS, JSON and wasm (the model's \`.onnx\` as it is). First visit: the notes app's service-worker precache and what the page asked for; the example app's requests; the extension's zip.` +
          (values['no-browser']
            ? ' Times not measured (`--no-browser`).'
            : ` Served: bytes on the wire from ${serverText}. Times: headless Chromium, fresh profile, CDP network emulation ${networkText}; median of ${runs} run(s); ms from the navigation's start; first search = a note written and its words searched as soon as the page takes input, to the first result painted; model ready = search by meaning.`),
        '',
        markdownTable([header, ...rows]),
        '',
        ...results.map(
          (r) =>
            `- ${r.app}: first visit = ${r.first_visit.source}, ${r.first_visit.files} files; largest: ` +
            r.largest.map((f) => `${f.path} ${mb(f.raw)} (br ${mb(f.br)})`).join(', '),
        ),
      ].join('\n'),
    });
  if (values.html) {
    writeReport(values.html, sizeReport(results, commit));
    console.log(`wrote ${values.html}`);
  }
  if (values.json)
    console.log(JSON.stringify({ commit, network, server: values.server, runs, apps: results }));
}

/** The `--html` report: bytes per app (disk, first visit, offline), and the first-search times. */
function sizeReport(results: AppResult[], commit: string) {
  const labels = results.map((r) => r.app);
  const toMb = (n: number | null | undefined) => (n == null ? null : Number((n / 1e6).toFixed(2)));
  const timed = results.filter((r) => r.first);
  return {
    title: 'anamnesis bench:size',
    intro: [
      `${repo} at ${commit}; ${new Date().toISOString()}.`,
      'First visit: what a first visit downloads (the notes app: its service worker precache and the page requests; the extension: its zip), compressed as a static server sends it (gzip/brotli level 6 for text, JS, JSON and wasm).',
      `Times: headless Chromium, fresh profile, CDP network emulation: ${networkText}; median of ${runs} run(s).`,
    ],
    charts: [
      {
        title: 'Bytes per app (MB)',
        note: 'Disk: the build output. First visit: compressed (brotli). Offline: what is kept for offline use.',
        config: {
          type: 'bar' as const,
          data: {
            labels,
            datasets: [
              {
                label: 'disk',
                data: results.map((r) => toMb(r.disk.raw)),
                backgroundColor: '#9a9a9a',
              },
              {
                label: 'first visit (brotli)',
                data: results.map((r) => toMb(r.first_visit.br)),
                backgroundColor: '#1f77b4',
              },
              {
                label: 'offline cache',
                data: results.map((r) => toMb(r.offline?.raw)),
                backgroundColor: '#2ca02c',
              },
            ],
          },
        },
      },
      {
        title: 'First search (ms from navigation)',
        note: 'A note written and searched as soon as the page takes input; the repeat visit is offline.',
        config: {
          type: 'bar' as const,
          data: {
            labels: timed.map((r) => r.app),
            datasets: [
              {
                label: 'first visit: first search',
                data: timed.map((r) => r.first!.first_search_ms),
                backgroundColor: '#1f77b4',
              },
              {
                label: 'first visit: model ready',
                data: timed.map((r) => r.first!.model_ms),
                backgroundColor: '#ff7f0e',
              },
              {
                label: 'repeat visit offline: first search',
                data: timed.map((r) => r.offline_visit?.first_search_ms ?? null),
                backgroundColor: '#2ca02c',
              },
            ],
          },
        },
      },
    ],
    tables: [
      {
        title: 'Per app (bytes; ms)',
        rows: [
          [
            'app',
            'disk',
            'first visit raw',
            'gzip',
            'brotli',
            'offline',
            'first search',
            'model ready',
            'repeat offline search',
          ],
          ...results.map((r) => [
            r.app,
            r.disk.raw,
            r.first_visit.raw,
            r.first_visit.gzip,
            r.first_visit.br,
            r.offline?.raw ?? 0,
            r.first?.first_search_ms ?? 'n/a',
            r.first?.model_ms ?? 'n/a',
            r.offline_visit?.first_search_ms ?? 'n/a',
          ]),
        ],
      },
    ],
  };
}

await main();
