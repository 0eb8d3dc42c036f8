/**
 * The client test page: `@anamnesis/client` as an app uses it, driven by Playwright through
 * `window.client`. Every result is an {@link Outcome}, so typed errors reach the test intact.
 */
import {
  clearSettings,
  isAnamnesisError,
  loadSettings,
  openMemory,
  recoverMemory,
  saveSettings,
  type EngineMethod,
  type MemoryClient,
  type MemoryInfo,
  type OpenMemoryOptions,
  type OpfsRecoverResult,
  type ProgressEvent,
  type RecoverMemoryOptions,
  type RememberInput,
  type UiSettings,
} from '@anamnesis/client';

/** A typed error as the tests see it. */
export interface SeenError {
  name: string;
  message: string;
  code?: string;
  details?: Record<string, unknown>;
  /** `instanceof AnamnesisError` on the page (after crossing the boundary). */
  isAnamnesisError: boolean;
}

/** A call's result or its error. */
export type Outcome<T = unknown> = { ok: true; value: T } | { ok: false; error: SeenError };

/** What the tests call on `window.client`. */
export interface ClientPageApi {
  /** Opens a store under `key` (several per page are fine). */
  open(key: string, options: OpenMemoryOptions): Promise<Outcome<MemoryInfo>>;
  /** Calls an engine method and waits for it. */
  call(key: string, method: EngineMethod, args: unknown[]): Promise<Outcome>;
  /** Starts a call without waiting; {@link settle} waits for it. */
  start(key: string, method: EngineMethod, args: unknown[]): number;
  settle(ticket: number): Promise<Outcome>;
  role(key: string): string;
  info(key: string): Outcome<MemoryInfo>;
  close(key: string): Promise<Outcome<void>>;
  /** `await using`: opens, remembers, leaves the block; then returns a call's outcome after it. */
  disposeThenCall(options: OpenMemoryOptions): Promise<Outcome>;
  /**
   * `rememberMany(items)`, and a crash when its first progress event arrives (`'embedding'`: some
   * batches embedded) or its last (`'writing'`: all embedded, the transaction under way):
   * `'terminate'` terminates the worker through the test hook (Chromium stops a busy worker at
   * its next task, or forcibly after 2 s); `'signal'` calls `window.crashPoint()`, which the test
   * exposes to crash the whole renderer. Returns the call's outcome (if the page survives).
   */
  crashDuringRememberMany(
    key: string,
    items: RememberInput[],
    when: 'embedding' | 'writing',
    how: 'terminate' | 'signal',
  ): Promise<Outcome>;
  /** Progress events seen by a `rememberMany` (to check they cross the boundary). */
  rememberManyWithProgress(
    key: string,
    items: RememberInput[],
  ): Promise<Outcome<{ ids: string[]; events: ProgressEvent[] }>>;
  /** Milliseconds of `n` sequential calls of a cached `recall(query)` (after one warm-up). */
  roundTrips(key: string, query: string, n: number): Promise<number[]>;
  /** Removes every entry of the origin's OPFS root; returns the names removed. */
  clearOpfs(): Promise<string[]>;
  /**
   * Overwrites `length` bytes at `offset` of a closed store's database file with `fill`, in its
   * opfs-sahpool file (the file whose header names `/<name>.sqlite3`; data after a 4 KiB header).
   */
  damageStore(name: string, offset: number, length: number, fill: number): Promise<Outcome<void>>;
  /** `recoverMemory(options)`, without the salvaged JSON Lines (its length instead). */
  recover(
    options: RecoverMemoryOptions,
  ): Promise<Outcome<Omit<OpfsRecoverResult, 'jsonl'> & { jsonlLength: number }>>;
  /** Names in the OPFS folder `.anamnesis`. */
  storeFolder(): Promise<string[]>;
  loadSettings(name: string): Promise<UiSettings>;
  saveSettings(patch: Partial<UiSettings>, name: string): Promise<UiSettings>;
  clearSettings(name: string): Promise<void>;
  /** Milliseconds since navigation start (for the page-load benchmark). */
  now(): number;
}

function seen(e: unknown): SeenError {
  const error = e as { name?: string; message?: string; code?: string; details?: unknown };
  return {
    name: String(error?.name ?? 'Error'),
    message: String(error?.message ?? e),
    ...(typeof error?.code === 'string' ? { code: error.code } : {}),
    ...(error?.details ? { details: JSON.parse(JSON.stringify(error.details)) } : {}),
    isAnamnesisError: isAnamnesisError(e),
  };
}

async function outcome<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (e) {
    return { ok: false, error: seen(e) };
  }
}

const memories = new Map<string, MemoryClient>();
const tickets = new Map<number, Promise<Outcome>>();
let nextTicket = 1;

function memory(key: string): MemoryClient {
  const m = memories.get(key);
  if (!m) throw new Error(`no memory opened as ${key}`);
  return m;
}

function invoke(key: string, method: EngineMethod, args: unknown[]): Promise<unknown> {
  const m = memory(key) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  return m[method]!(...args);
}

const api: ClientPageApi = {
  open: (key, options) =>
    outcome(async () => {
      const m = await openMemory(options);
      memories.set(key, m);
      return m.info;
    }),
  call: (key, method, args) => outcome(() => invoke(key, method, args)),
  start(key, method, args) {
    const ticket = nextTicket++;
    tickets.set(
      ticket,
      outcome(() => invoke(key, method, args)),
    );
    return ticket;
  },
  settle: (ticket) => tickets.get(ticket)!,
  role: (key) => memory(key).role,
  info(key) {
    try {
      return { ok: true, value: memory(key).info };
    } catch (e) {
      return { ok: false, error: seen(e) };
    }
  },
  close: (key) => outcome(() => memory(key).close()),
  disposeThenCall: (options) =>
    outcome(async () => {
      let escaped: MemoryClient;
      {
        await using m = await openMemory(options);
        escaped = m;
        await m.remember({ text: 'disposed at the end of the block' });
      }
      return escaped.stats();
    }),
  crashDuringRememberMany: (key, items, when, how) =>
    outcome(() => {
      const m = memory(key);
      let crashed = false;
      return m.rememberMany(items, {
        onProgress: (e) => {
          if (crashed || (when === 'writing' && e.loaded < e.total)) return;
          crashed = true;
          if (how === 'terminate') m.debug.terminateWorker();
          else void (window as unknown as { crashPoint(): Promise<void> }).crashPoint();
        },
      });
    }),
  rememberManyWithProgress: (key, items) =>
    outcome(async () => {
      const events: ProgressEvent[] = [];
      const ids = await memory(key).rememberMany(items, { onProgress: (e) => events.push(e) });
      return { ids, events };
    }),
  async roundTrips(key, query, n) {
    const m = memory(key);
    await m.recall(query);
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = performance.now();
      await m.recall(query);
      times.push(performance.now() - start);
    }
    return times;
  },
  async clearOpfs() {
    const root = await navigator.storage.getDirectory();
    const names: string[] = [];
    for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) {
      names.push(name);
    }
    for (const name of names) await root.removeEntry(name, { recursive: true });
    return names;
  },
  damageStore: (name, offset, length, fill) =>
    outcome(async () => {
      const root = await navigator.storage.getDirectory();
      const folder = await (await root.getDirectoryHandle('.anamnesis')).getDirectoryHandle(name);
      const opaque = await folder.getDirectoryHandle('.opaque');
      const want = `/${name}.sqlite3`;
      for await (const [, handle] of (
        opaque as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }
      ).entries()) {
        const file = await handle.getFile();
        const header = new Uint8Array(await file.slice(0, 512).arrayBuffer());
        const path = new TextDecoder().decode(header.subarray(0, header.indexOf(0)));
        if (path !== want) continue;
        const writable = await handle.createWritable({ keepExistingData: true });
        await writable.write({
          type: 'write',
          position: 4096 + offset,
          data: new Uint8Array(length).fill(fill),
        });
        await writable.close();
        return;
      }
      throw new Error(`no pool file holds ${want}`);
    }),
  recover: (options) =>
    outcome(async () => {
      const { jsonl, ...rest } = await recoverMemory(options);
      return { ...rest, jsonlLength: jsonl.length };
    }),
  async storeFolder() {
    const root = await navigator.storage.getDirectory();
    const folder = await root.getDirectoryHandle('.anamnesis');
    const names: string[] = [];
    for await (const name of (folder as unknown as { keys(): AsyncIterable<string> }).keys())
      names.push(name);
    return names;
  },
  loadSettings: (name) => loadSettings({ name }),
  saveSettings: (patch, name) => saveSettings(patch, { name }),
  clearSettings: (name) => clearSettings({ name }),
  now: () => performance.now(),
};

/** What `?autoRecall=<store>&q=<query>` measured (milliseconds since navigation start). */
export interface AutoRecall {
  /** This module started. */
  scriptMs: number;
  /** `openMemory` resolved. */
  openedMs: number;
  /** The first `recall` resolved. */
  firstRecallMs: number;
  hits: number;
  info: MemoryInfo;
}

// The page-load benchmark: open a store and recall as soon as the page runs, as an app would.
const params = new URLSearchParams(location.search);
const autoStore = params.get('autoRecall');
if (autoStore) {
  const scriptMs = performance.now();
  void openMemory({ name: autoStore }).then(async (m) => {
    const openedMs = performance.now();
    const hits = await m.recall(params.get('q') ?? 'memory');
    const result: AutoRecall = {
      scriptMs,
      openedMs,
      firstRecallMs: performance.now(),
      hits: hits.length,
      info: m.info,
    };
    memories.set('auto', m);
    (window as unknown as { autoRecall: AutoRecall }).autoRecall = result;
  });
}

(window as unknown as { client: ClientPageApi }).client = api;
document.body.dataset.ready = 'true';
