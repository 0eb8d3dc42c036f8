/**
 * Resident memory of a Chromium renderer process, read from Linux's /proc: the renderers of a
 * browser are the processes with `--type=renderer` and its `--user-data-dir=<profile>` (the UI's
 * own `--top-chrome-webui` renderer left out). A page and its dedicated workers share one renderer, so its RSS covers the
 * page's and the worker's JS heaps, wasm memories (SQLite, ONNX Runtime) and Blink.
 */
import { readdirSync, readFileSync } from 'node:fs';

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // the process is gone, or not ours
  }
}

/** The renderer processes (pid, RSS in MB) of the browser using `profileDir`; empty off Linux. */
export function renderers(profileDir: string): { pid: string; mb: number }[] {
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
    const kb = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`) ?? '')?.[1];
    return kb ? [{ pid, mb: Number(kb) / 1000 }] : [];
  });
}

export const rendererPids = (profileDir: string): string[] =>
  renderers(profileDir).map((r) => r.pid);

/** RSS in MB of the largest renderer of the browser using `profileDir`; null if none is found. */
export function rendererRssMb(profileDir: string): number | null {
  const all = renderers(profileDir);
  return all.length === 0 ? null : Math.max(...all.map((r) => r.mb));
}
