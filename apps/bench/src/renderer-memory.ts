/**
 * Memory of a Chromium renderer process, read from Linux's /proc: the renderers of a browser are
 * the processes with `--type=renderer` and its `--user-data-dir=<profile>` (the UI's own
 * `--top-chrome-webui` renderer left out). A page and its dedicated workers share one renderer.
 *
 * Two figures per renderer: its RSS, which also counts the pages of Chromium's own binary and
 * libraries it has touched (file-backed and shared with the browser and every other renderer:
 * about 110 MB of a blank page's 124 here), and its private footprint, the figure Chromium's task
 * manager and memory metrics report: resident anonymous memory plus swap (`RssAnon + VmSwap`),
 * which covers the page's and the worker's JS heaps, wasm memories (SQLite, the vector index, a
 * model) and Blink's allocations, and nothing shared.
 */
import { readdirSync, readFileSync } from 'node:fs';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process is gone, or not ours
  }
}

/** One renderer process: its pid, RSS and private footprint (see above), in MB. */
export interface RendererMemory {
  pid: string;
  rssMb: number;
  privateMb: number;
}

/** The renderer processes of the browser using `profileDir`; empty off Linux. */
export function renderers(profileDir: string): RendererMemory[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p));
  } catch {
    return [];
  }
  return pids.flatMap((pid) => {
    // a renderer rewrites its argv into one space-separated title
    const cmdline = ` ${(read(`/proc/${pid}/cmdline`) ?? '').replace(/\0/g, ' ')} `;
    if (
      !cmdline.includes(' --type=renderer ') ||
      !cmdline.includes(` --user-data-dir=${profileDir} `) ||
      cmdline.includes(' --top-chrome-webui ')
    )
      return [];
    const status = read(`/proc/${pid}/status`) ?? '';
    const kb = (field: string) => {
      const value = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1];
      return value === undefined ? undefined : Number(value);
    };
    const rss = kb('VmRSS');
    const anon = kb('RssAnon');
    if (rss === undefined || anon === undefined) return [];
    return [{ pid, rssMb: rss / 1000, privateMb: (anon + (kb('VmSwap') ?? 0)) / 1000 }];
  });
}

export const rendererPids = (profileDir: string): string[] =>
  renderers(profileDir).map((r) => r.pid);

/** The largest renderer (by RSS) of the browser using `profileDir`; null if none is found. */
export function rendererMemory(profileDir: string): RendererMemory | null {
  const all = renderers(profileDir);
  return all.length === 0 ? null : all.reduce((a, b) => (b.rssMb > a.rssMb ? b : a));
}
