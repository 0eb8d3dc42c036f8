/**
 * The client test page: `@anamnesis/client` as an app uses it, driven by Playwright through
 * `window.client`. Every result is an {@link Outcome}, so typed errors reach the test intact.
 */
import {
  clearSettings,
  connectMemory,
  deleteMemory,
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
import { openMemoryWithFaults, terminateWorker } from '@anamnesis/client/testing';
import { parseSyncCode, type Sync, type SyncStatus } from '@anamnesis/sync';
import { browserSync, startBrowserSync } from '@anamnesis/sync/browser';

import { rng } from '../../../apps/bench/src/corpus.ts';
import { clearOpfs } from './clear-opfs.ts';

// Every worker this page starts, so that a test can kill them all at any moment (even while
// `openMemory` is still opening, before a client exists to call `terminateWorker` on).
const workers: Worker[] = [];
const NativeWorker = globalThis.Worker;
globalThis.Worker = class extends NativeWorker {
  constructor(url: string | URL, options?: WorkerOptions) {
    super(url, options);
    workers.push(this);
  }
};

/** One call of a sequence run by {@link ClientPageApi.runOps}. */
export interface Op {
  method: EngineMethod;
  args: unknown[];
}

/** What {@link ClientPageApi.load} measured and wrote in one tab. */
export interface LoadReport {
  /** Milliseconds of each completed call, by method. */
  latencies: Record<'recall' | 'remember' | 'update' | 'forget', number[]>;
  /** Memories this tab wrote that should exist at the end (id → text), as acknowledged. */
  live: Record<string, string>;
  /** Ids this tab wrote and then forgot (acknowledged). */
  forgotten: string[];
  /** Every error any call saw. */
  errors: SeenError[];
}

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
  /** Opens a store under `key` (several per page are fine); see {@link progressOf}. */
  open(key: string, options: OpenMemoryOptions): Promise<Outcome<MemoryInfo>>;
  /**
   * `connectMemory` under `key`, without waiting: calls may follow at once. Returns the ms since
   * navigation start when it was called; {@link partsOf} lists the readiness events it heard.
   */
  connect(key: string, options: OpenMemoryOptions): number;
  /** The parts (`'store'`, `'model'`) a {@link connect}ed store said were ready, in order, with ms since navigation start. */
  partsOf(key: string): { part: string; at: number }[];
  /** The progress events (model load, re-embedding) the last `open` of `key` saw. */
  progressOf(key: string): ProgressEvent[];
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
  /** `recoverMemory(options)`, without the salvaged JSON Lines (its length instead). */
  recover(
    options: RecoverMemoryOptions,
  ): Promise<Outcome<Omit<OpfsRecoverResult, 'jsonl'> & { jsonlLength: number }>>;
  /** Names in the OPFS folder `.anamnesis`. */
  storeFolder(): Promise<string[]>;
  /** `deleteMemory({ name })`. */
  deleteStore(name: string): Promise<Outcome<boolean>>;
  /**
   * The bytes of every file of store `name`'s OPFS pool (`.anamnesis/<name>/.opaque/`: the
   * database and its journal, each after the pool's 4,096-byte header), as OPFS holds them, read
   * while no worker has them open: their total size, a SHA-256 of them all (in file-name order),
   * and which of `needles` occur in them (as bytes of their UTF-8).
   */
  storeFiles(
    name: string,
    needles: string[],
  ): Promise<{ bytes: number; sha256: string; found: string[] }>;
  /**
   * Whether store `name`'s OPFS pool holds a hot rollback journal, read while no worker has it
   * open: a file the pool names `<database>-journal` (in its header) whose content starts with
   * SQLite's journal magic, what a writer stopped mid-transaction leaves and the next open must
   * roll back.
   */
  hotJournal(name: string): Promise<boolean>;
  loadSettings(name: string): Promise<UiSettings>;
  saveSettings(patch: Partial<UiSettings>, name: string): Promise<UiSettings>;
  clearSettings(name: string): Promise<void>;
  /**
   * Syncs the store open under `key` (as store `name`) with a room of the sync server at `url`,
   * through `@anamnesis/sync/browser` (the state in IndexedDB, one tab per store); `code` is a
   * sync code.
   */
  startSync(key: string, name: string, url: string, code: string): Promise<Outcome<void>>;
  /**
   * Waits for `memory.sync()` of a store opened with `syncWith: { url, code }` in its options
   * (`openMemory({ sync: browserSync(…) })`), then `syncStatus` and `syncDo` reach it.
   */
  syncOf(key: string): Promise<Outcome<void>>;
  /** The status of `key`'s sync. */
  syncStatus(key: string): SyncStatus;
  /** Calls `connect`, `disconnect`, `synced` or `close` on `key`'s sync. */
  syncDo(key: string, action: 'connect' | 'disconnect' | 'synced' | 'close'): Promise<Outcome>;
  /** Milliseconds since navigation start (for the page-load benchmark). */
  now(): number;
  /**
   * Runs `ops` one after the other on `key`, stopping at the first error. Before sending op `i`
   * and after its result it awaits `window.reportOp('sent' | 'acked', i)` when the test exposed
   * one, so the test knows exactly which writes were acknowledged even if the page then dies.
   */
  runOps(key: string, ops: Op[]): Promise<{ acked: number; error?: SeenError }>;
  /** Terminates every worker this page started, without telling the client; returns how many. */
  killWorkers(): number;
  /**
   * Opens `key` and terminates every worker of the page after the `after`-th progress event of
   * `phase` (then `delayMs` later), e.g. in the middle of a re-embedding done while opening.
   * Resolves when the kill happened (the open itself completes only if it beat the kill).
   */
  openAndKill(
    key: string,
    options: OpenMemoryOptions,
    kill: { phase: string; after: number; delayMs: number },
  ): Promise<{ events: number; total: number }>;
  /**
   * A load of `ms` milliseconds on `key`: one loop of `recall`s and one of writes (remember,
   * update and forget of this tab's own memories, ids `<tab>-<n>`), side by side.
   */
  load(key: string, options: { ms: number; seed: number; tab: string }): Promise<LoadReport>;
  /**
   * Checks `expected` (id → text, or null for absent) with `get`, and that `recall(word)` finds
   * each id of `recalls` (id → a word only its text has). Returns the mismatches.
   */
  check(
    key: string,
    expected: Record<string, string | null>,
    recalls: Record<string, string>,
  ): Promise<string[]>;
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
const syncs = new Map<string, Sync>();
const tickets = new Map<number, Promise<Outcome>>();
const progress = new Map<string, ProgressEvent[]>();
const parts = new Map<string, { part: string; at: number }[]>();
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

/** The files of store `name`'s OPFS pool (`.anamnesis/<name>/.opaque/`): name and bytes. */
async function poolFiles(name: string): Promise<[string, Uint8Array][]> {
  const root = await navigator.storage.getDirectory();
  const opaque = await (
    await (await root.getDirectoryHandle('.anamnesis')).getDirectoryHandle(name)
  ).getDirectoryHandle('.opaque');
  const files: [string, Uint8Array][] = [];
  for await (const [fileName, handle] of (
    opaque as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }
  ).entries())
    files.push([fileName, new Uint8Array(await (await handle.getFile()).arrayBuffer())]);
  return files;
}

const api: ClientPageApi = {
  open: (key, options) =>
    outcome(async () => {
      const events: ProgressEvent[] = [];
      progress.set(key, events);
      // `simulateWebGpuFailure` in a test's options: the testing entry's fault, not an app option
      // `syncWith` in a test's options: `sync: browserSync(…)` (a plugin cannot cross from the test)
      const { simulateWebGpuFailure, syncWith, ...rest } = options as OpenMemoryOptions & {
        simulateWebGpuFailure?: boolean;
        syncWith?: { url: string; code: string };
      };
      const m = await openMemoryWithFaults(
        {
          ...rest,
          onProgress: (e) => events.push(e),
          ...(syncWith
            ? { sync: browserSync({ url: syncWith.url, ...parseSyncCode(syncWith.code) }) }
            : {}),
        },
        { webGpuFailure: simulateWebGpuFailure === true },
      );
      memories.set(key, m);
      return m.info;
    }),
  connect(key, options) {
    const heard: { part: string; at: number }[] = [];
    parts.set(key, heard);
    memories.set(
      key,
      connectMemory({ ...options, onReady: (part) => heard.push({ part, at: performance.now() }) }),
    );
    return performance.now();
  },
  partsOf: (key) => parts.get(key) ?? [],
  progressOf: (key) => progress.get(key) ?? [],
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
          if (how === 'terminate') terminateWorker(m);
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
  clearOpfs,
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
  deleteStore: (name) => outcome(() => deleteMemory({ name })),
  startSync: (key, name, url, code) =>
    outcome(async () => {
      syncs.set(
        key,
        await startBrowserSync(memories.get(key)!, name, { url, ...parseSyncCode(code) }),
      );
    }),
  syncOf: (key) =>
    outcome(async () => {
      syncs.set(key, await memory(key).sync());
    }),
  syncStatus: (key) => syncs.get(key)!.status(),
  syncDo: (key, action) =>
    outcome(async () => {
      const sync = syncs.get(key)!;
      if (action === 'connect') sync.connect();
      else if (action === 'disconnect') sync.disconnect();
      else await sync[action]();
    }),
  async storeFiles(name, needles) {
    const files = await poolFiles(name);
    files.sort(([a], [b]) => (a < b ? -1 : 1));
    const all = new Uint8Array(files.reduce((n, [, b]) => n + b.length, 0));
    let at = 0;
    for (const [, b] of files) {
      all.set(b, at);
      at += b.length;
    }
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', all));
    // latin1 maps each byte to one character, so a UTF-8 needle is found as its bytes
    const text = new TextDecoder('latin1').decode(all);
    const utf8 = (s: string) => new TextDecoder('latin1').decode(new TextEncoder().encode(s));
    return {
      bytes: all.length,
      sha256: [...digest].map((b) => b.toString(16).padStart(2, '0')).join(''),
      found: needles.filter((n) => text.includes(utf8(n))),
    };
  },
  async hotJournal(name) {
    // the pool's header: the file's name (NUL-terminated) in its first bytes; its content after
    // 4,096 bytes
    const magic = [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7];
    return (await poolFiles(name)).some(([, bytes]) => {
      const end = bytes.indexOf(0);
      const path = new TextDecoder().decode(bytes.subarray(0, end < 0 ? 0 : Math.min(end, 512)));
      return path.endsWith('-journal') && magic.every((b, i) => bytes[4096 + i] === b);
    });
  },
  loadSettings: (name) => loadSettings({ name }),
  saveSettings: (patch, name) => saveSettings(patch, { name }),
  clearSettings: (name) => clearSettings({ name }),
  now: () => performance.now(),
  async runOps(key, ops) {
    const report = (window as unknown as { reportOp?: (what: string, i: number) => Promise<void> })
      .reportOp;
    let acked = 0;
    for (const [i, op] of ops.entries()) {
      await report?.('sent', i);
      try {
        await invoke(key, op.method, op.args);
      } catch (e) {
        return { acked, error: seen(e) };
      }
      acked++;
      await report?.('acked', i);
    }
    return { acked };
  },
  killWorkers() {
    for (const w of workers) w.terminate();
    return workers.length;
  },
  openAndKill: (key, options, kill) =>
    new Promise((resolve, reject) => {
      let events = 0;
      openMemory({
        ...options,
        onProgress: (e) => {
          if (e.phase !== kill.phase || ++events !== kill.after) return;
          setTimeout(() => {
            api.killWorkers();
            resolve({ events, total: e.total });
          }, kill.delayMs);
        },
      }).then(
        // Done before the kill came (a last short batch within `delayMs`): the kill still comes.
        (m) => memories.set(key, m),
        (e: unknown) => {
          if (events < kill.after) reject(e);
        },
      );
    }),
  async load(key, { ms, seed, tab }) {
    const m = memory(key);
    const random = rng(seed);
    const report: LoadReport = {
      latencies: { recall: [], remember: [], update: [], forget: [] },
      live: {},
      forgotten: [],
      errors: [],
    };
    const WORDS = ['cat', 'tax', 'trip', 'garden', 'music', 'bread', 'meeting', 'river', 'code'];
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const end = performance.now() + ms;
    const timed = async (
      what: keyof LoadReport['latencies'],
      run: () => Promise<unknown>,
    ): Promise<boolean> => {
      const start = performance.now();
      try {
        await run();
        report.latencies[what].push(performance.now() - start);
        return true;
      } catch (e) {
        report.errors.push(seen(e));
        return false;
      }
    };
    const reader = async () => {
      while (performance.now() < end && report.errors.length === 0) {
        const own = Object.keys(report.live);
        const query =
          own.length > 0 && random() < 0.3
            ? `w${pick(own).replace(/\W/g, '')}`
            : `${pick(WORDS)} ${pick(WORDS)}`;
        await timed('recall', () => m.recall(query, { topK: 10 }));
      }
    };
    let n = 0;
    const writer = async () => {
      while (performance.now() < end && report.errors.length === 0) {
        const own = Object.keys(report.live);
        const r = random();
        if (own.length < 5 || r < 0.5) {
          const id = `${tab}-${n++}`;
          const text = `${pick(WORDS)} note ${id} by tab ${tab} w${id.replace(/\W/g, '')}`;
          if (await timed('remember', () => m.remember({ id, text }))) report.live[id] = text;
        } else if (r < 0.8) {
          const id = pick(own);
          const text = `${pick(WORDS)} edited ${id} at ${n++} w${id.replace(/\W/g, '')}`;
          if (await timed('update', () => m.update(id, { text }))) report.live[id] = text;
        } else {
          const id = pick(own);
          if (await timed('forget', () => m.forget(id))) {
            Reflect.deleteProperty(report.live, id);
            report.forgotten.push(id);
          }
        }
      }
    };
    await Promise.all([reader(), writer()]);
    return report;
  },
  async check(key, expected, recalls) {
    const m = memory(key);
    const wrong: string[] = [];
    for (const [id, text] of Object.entries(expected)) {
      const got = await m.get(id);
      if ((got?.text ?? null) !== text)
        wrong.push(`${id}: ${got?.text ?? 'absent'} ≠ ${text ?? 'absent'}`);
    }
    for (const [id, word] of Object.entries(recalls)) {
      const hits = await m.recall(word, { topK: 5 });
      if (!hits.some((h) => h.id === id)) wrong.push(`recall(${word}) misses ${id}`);
    }
    return wrong;
  },
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
