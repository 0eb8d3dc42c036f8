/**
 * Seeded property fuzz of the engine's public calls (issue 8). Every call with random, mostly
 * hostile input either succeeds or throws an AnamnesisError with a catalogue code; a failed write
 * leaves the JSON Lines export byte-identical; a successful one changes only what it should and
 * reads back exactly. Case count: ANAMNESIS_FUZZ_CASES; seed: ANAMNESIS_FUZZ_SEED.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnamnesisError, ERROR_CODES } from '@anamnesis/errors';
import {
  createEngine,
  ENGINE_PROFILES,
  MAX_META_CHARS,
  MAX_META_KEYS,
  type Engine,
  type EngineOptions,
  type Memory,
} from '../src/index.ts';
import { caseSeed, FUZZ_CASES, FUZZ_SEED, Gen, replay } from './fuzz-gen.ts';
import { defaultEmbedder, NOTES } from './helpers.ts';

const MAX_TEXT = 2000;
const RECALL_CASES = Math.round(FUZZ_CASES * 0.4);
const WRITE_CASES = FUZZ_CASES - RECALL_CASES;
const TIMEOUT = Math.max(120_000, FUZZ_CASES * 60);

type Outcome<T> = { ok: true; value: T } | { ok: false; error: AnamnesisError };

/** Runs a call; anything thrown that is not a catalogued AnamnesisError fails the case. */
async function outcome<T>(p: () => Promise<T>, fail: Fail): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await p() };
  } catch (e) {
    if (!(e instanceof AnamnesisError))
      fail(`threw a non-AnamnesisError: ${e instanceof Error ? e.stack : String(e)}`);
    if (!(e.code in ERROR_CODES)) fail(`unknown error code ${e.code}`);
    if (e.code === 'INTERNAL')
      fail(`INTERNAL error (a bug): ${e.message}; cause: ${(e.cause as Error | undefined)?.stack}`);
    return { ok: false, error: e };
  }
}

type Fail = (detail: string) => never;

function failer(property: string, index: number): Fail {
  return (detail) => {
    throw new Error(replay(property, FUZZ_SEED, index, detail));
  };
}

/** The memory lines of an export, by id. */
function linesById(jsonl: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of jsonl.split('\n').slice(1)) {
    if (line !== '') out.set((JSON.parse(line) as { id: string }).id, line);
  }
  return out;
}

const PROFILES = Object.keys(ENGINE_PROFILES);
const TAGS = ['pets', 'finance', 'work', "'); DROP TABLE memories; --", 'ταυτότητα', '"', 'a b'];
const SESSIONS = ['home', 'work', 'trips', 'x" OR 1=1', '🏠'];

function filter(g: Gen, ids: readonly string[]): unknown {
  const f: Record<string, unknown> = {};
  if (g.chance(0.4)) f.tags = g.maybe(() => [g.pick(TAGS)]);
  if (g.chance(0.3)) f.kind = g.maybe(() => g.pick(['note', 'file', "note' OR '1'='1"]));
  if (g.chance(0.3)) f.session = g.maybe(() => g.pick(SESSIONS));
  if (g.chance(0.2)) f.after = g.maybe(() => g.int(2) * Date.UTC(2026, 0, 1));
  if (g.chance(0.2)) f.before = g.maybe(() => new Date(Date.UTC(2027, 0, 1)));
  if (g.chance(0.3)) f.meta = g.maybe(() => ({ [g.key()]: g.pick([1, 'x', true, null]) }));
  if (g.chance(0.2)) f.ids = g.maybe(() => [g.pick(ids), g.string()]);
  if (g.chance(0.05)) f[g.key()] = g.any();
  return g.chance(0.1) ? g.any() : f;
}

/** A filter that looks like a condition but sets none: `forget` must refuse it. */
function emptyLooking(g: Gen): Record<string, unknown> {
  const f: Record<string, unknown> = {};
  for (const key of ['tags', 'kind', 'session', 'ids', 'meta', 'after', 'before'])
    if (g.chance(0.4)) f[key] = key === 'meta' && g.chance(0.5) ? {} : undefined;
  return g.chance(0.2) ? structuredClone(f) : f;
}

/** Metadata at or past the limits: too many keys, too many characters, reserved names. */
function oversizedMeta(g: Gen): Record<string, unknown> {
  switch (g.int(3)) {
    case 0:
      return Object.fromEntries(
        Array.from({ length: MAX_META_KEYS + g.int(3) - 1 }, (_, i) => [`k${i}`, i]),
      );
    case 1:
      return { big: 'x'.repeat(MAX_META_CHARS - 12 + g.int(24)) };
    default:
      return JSON.parse(`{"${g.pick(['__proto__', 'constructor', 'prototype'])}": 1}`) as Record<
        string,
        unknown
      >;
  }
}

function customProfile(g: Gen): unknown {
  const base = ENGINE_PROFILES[g.pick(PROFILES)]!;
  const p: Record<string, unknown> = structuredClone({ ...base });
  const field = g.pick(['name', 'legs', 'fusion', 'recency', 'minSimilarity', 'mmr', 'pool']);
  if (g.chance(0.6)) p[field] = g.any();
  return p;
}

function recallOptions(g: Gen, ids: readonly string[]): unknown {
  if (g.chance(0.05)) return g.any();
  const o: Record<string, unknown> = {};
  const set = (key: string, good: () => unknown) => {
    if (g.chance(0.3)) o[key] = g.maybe(good, 0.25);
  };
  set('profile', () => (g.chance(0.8) ? g.pick(PROFILES) : customProfile(g)));
  set('topK', () => 1 + g.int(30));
  set('tokenBudget', () => 1 + g.int(400));
  set('filter', () => filter(g, ids));
  set('minSimilarity', () => g.float() * 2 - 1);
  set('graph', () => ({
    seeds: g.maybe(() => [g.pick(ids), g.string()]),
    maxHops: g.maybe(() => 1 + g.int(5)),
    undirected: g.chance(0.5),
  }));
  set('extraLists', () => [
    {
      label: g.pick(['mine', 'fts', 'x y', "a') OR 1=1 --", g.key()]),
      items: g.maybe(() => [
        { id: g.pick(ids), score: g.maybe(() => g.float()) },
        g.maybe(() => ({ id: g.string(), score: 1 })),
      ]),
      ...(g.chance(0.5) ? { weight: g.maybe(() => g.float()) } : {}),
    },
  ]);
  set('groupBy', () => 'session');
  set('neighbors', () => g.int(4));
  set('mmr', () =>
    g.chance(0.5) ? g.chance(0.5) : { lambda: g.float(), duplicateThreshold: 0.9 },
  );
  set('recencyMode', () => g.pick(['boost', 'dampen', 'neutral']));
  set('explain', () => g.chance(0.5));
  set('noCache', () => g.chance(0.2));
  if (g.chance(0.05)) o[g.key()] = g.any();
  return o;
}

function rememberInput(g: Gen, ids: readonly string[], index: number): unknown {
  if (g.chance(0.05)) return g.any();
  const m: Record<string, unknown> = { text: g.maybe(() => g.string(MAX_TEXT), 0.1) };
  if (g.chance(0.3))
    m.id = g.maybe(() => (g.chance(0.8) ? `fz-${index}-${g.int(1e6)}` : g.string()));
  if (g.chance(0.3)) m.kind = g.maybe(() => g.pick(['note', 'turn', g.string()]));
  if (g.chance(0.4)) m.session = g.maybe(() => g.pick([...SESSIONS, null]));
  if (g.chance(0.4)) m.tags = g.maybe(() => [g.pick(TAGS), g.string()]);
  if (g.chance(0.3))
    m.meta = g.maybe(() =>
      g.chance(0.1)
        ? oversizedMeta(g)
        : Object.fromEntries([[g.key(), g.pick([1, 'v', false, null, g.text(3)])]]),
    );
  if (g.chance(0.3)) m.importance = g.maybe(() => g.float());
  if (g.chance(0.2)) m.memoryScore = g.maybe(() => g.float());
  if (g.chance(0.2)) m.createdAt = g.maybe(() => Date.UTC(2025, g.int(12), 1 + g.int(28)));
  if (g.chance(0.2) && ids.length > 0)
    m.links = g.maybe(() => [{ to: g.pick(ids), kind: g.maybe(() => g.pick(['related', 'x"y'])) }]);
  if (g.chance(0.2)) m.allowDuplicate = g.maybe(() => true);
  return m;
}

function patch(g: Gen): unknown {
  if (g.chance(0.05)) return g.any();
  const p: Record<string, unknown> = {};
  if (g.chance(0.5)) p.text = g.maybe(() => g.string(MAX_TEXT));
  if (g.chance(0.3)) p.tags = g.maybe(() => [g.pick(TAGS)]);
  if (g.chance(0.3)) p.meta = g.maybe(() => ({ [g.key()]: g.text(2) }));
  if (g.chance(0.3)) p.importance = g.maybe(() => g.float());
  if (g.chance(0.2)) p.session = g.maybe(() => g.pick([...SESSIONS, null]));
  if (g.chance(0.2)) p.kind = g.maybe(() => g.string());
  if (g.chance(0.05)) p[g.key()] = g.any();
  return p;
}

const noBigInt = (_: string, v: unknown) => (typeof v === 'bigint' ? String(v) : v);

function importText(g: Gen, exported: string, index: number): unknown {
  if (g.chance(0.05)) return g.any();
  const lines = [exported.split('\n')[0]!];
  for (let i = 1 + g.int(3); i > 0; i--) {
    switch (g.int(6)) {
      case 0:
        lines.push(g.string());
        break;
      case 1:
        lines.push(JSON.stringify(g.any(), noBigInt) ?? '');
        break;
      default: {
        const line: Record<string, unknown> = {
          type: 'memory',
          id: `im-${index}-${i}-${g.int(1e6)}`,
          text: g.string(MAX_TEXT),
        };
        if (g.chance(0.2)) line.links = g.maybe(() => [{ to: 'nope', kind: 'related' }], 0.6);
        if (g.chance(0.2)) line.usage = g.maybe(() => [{ event: 'used', at: 1 }], 0.6);
        if (g.chance(0.2)) line.vector = g.pick(['!!!', 'AAAA', '']);
        if (g.chance(0.3))
          line[g.pick(['meta', 'tags', 'session', 'updatedAt', 'accessCount'])] = g.any();
        lines.push(JSON.stringify(line, noBigInt));
      }
    }
  }
  return lines.join('\n');
}

/**
 * The first field of a write's input that the stored memory does not hold exactly, if any.
 * Documented: leading byte order marks are dropped from a text; tags are deduplicated; `null`
 * means the default for every field but `session`.
 */
function misread(m: Memory, input: Record<string, unknown>): string | undefined {
  const given = (key: string) => input[key] !== undefined && input[key] !== null; // null: default
  if (given('text') && m.text !== (input.text as string).replace(/^\uFEFF+/, '')) return 'text';
  for (const key of ['kind', 'importance', 'memoryScore'] as const)
    if (given(key) && m[key] !== input[key]) return key; // (-0 reads back as 0)
  if ('session' in input && m.session !== ((input.session as string | undefined) ?? null))
    return 'session';
  if (given('tags') && JSON.stringify(m.tags) !== JSON.stringify([...new Set(input.tags as [])]))
    return 'tags';
  if (
    given('meta') &&
    JSON.stringify(m.meta) !== JSON.stringify(Object.fromEntries(Object.entries(input.meta!)))
  )
    return 'meta';
  return undefined;
}

type Backend = EngineOptions['embedder'];

/** The similarity backends the write property runs on, and their share of the write cases. */
const BACKENDS: [string, () => Promise<Backend>, number][] = [
  ['dense model', defaultEmbedder, Math.round(WRITE_CASES * 0.8)],
  ['tfidf', async () => 'tfidf', WRITE_CASES - Math.round(WRITE_CASES * 0.8)],
];

/** Write cases per fresh store. */
const SEGMENT = 600;

/** End of a segment: the store checks clean and round-trips byte-identically, then closes. */
async function settle(engine: Engine, fail: Fail, embedder: Backend): Promise<void> {
  const problems = await engine.verify();
  if (problems.length > 0) fail(`verify: ${problems.join('; ')}`);
  // The fuzzed store (odd Unicode, NUL, SQL-looking labels) round-trips byte-identically.
  for (const vectors of [false, true]) {
    const first = await engine.export({ vectors });
    const copy = await createEngine({ storage: 'memory', embedder });
    await copy.import(first);
    if ((await copy.export({ vectors })) !== first) fail(`export round trip (vectors: ${vectors})`);
    const copyProblems = await copy.verify();
    if (copyProblems.length > 0) fail(`verify after import: ${copyProblems.join('; ')}`);
    await copy.close();
  }
  await engine.close();
}

let recallEngine: Engine;
let clock = Date.UTC(2026, 0, 1);
const now = () => clock;

beforeAll(async () => {
  recallEngine = await createEngine({
    storage: 'memory',
    embedder: await defaultEmbedder(),
    now,
    maxTextLength: MAX_TEXT,
  });
  await recallEngine.rememberMany(NOTES);
  await recallEngine.link('cat', 'dog');
  await recallEngine.link('tax', 'meeting', { kind: 'same-week', weight: 2 });
  await recallEngine.markUsed('bread', 'used');
  console.info(
    `fuzz: seed ${FUZZ_SEED}, ${FUZZ_CASES} cases (${RECALL_CASES} recall, ${WRITE_CASES} writes)`,
  );
});
afterAll(() => recallEngine.close());

describe(`engine fuzz (seed ${FUZZ_SEED})`, () => {
  it(
    `recall, list, get: ${RECALL_CASES} random queries and options give results or a catalogued error, recall the same with and without the cache`,
    async () => {
      const ids = NOTES.map((n) => n.id);
      const known = new Set(ids);
      const counts = { ok: 0, error: 0 };
      for (let i = 0; i < RECALL_CASES; i++) {
        const g = new Gen(caseSeed(FUZZ_SEED, 'recall', i));
        const fail: Fail = failer('recall', i);
        const query = g.chance(0.05) ? g.any() : g.string(MAX_TEXT);
        const options = recallOptions(g, ids);
        const first = await outcome(
          () => recallEngine.recall(query as string, options as never),
          fail,
        );
        counts[first.ok ? 'ok' : 'error']++;
        if (first.ok) {
          if (!Array.isArray(first.value)) fail('recall did not return an array');
          for (const r of first.value) {
            if (!known.has(r.id)) fail(`unknown id ${r.id} in the results`);
            if (typeof r.score !== 'number' || Number.isNaN(r.score)) fail(`score ${r.score}`);
          }
        }
        // The other reads: list (filter, order, paging) and get.
        const listed = await outcome(
          () =>
            recallEngine.list(
              g.maybe(() => ({
                filter: filter(g, ids),
                order: g.maybe(() => g.pick(['updated', 'created'])),
                limit: g.maybe(() => 1 + g.int(20)),
                offset: g.maybe(() => g.int(10)),
              })) as never,
            ),
          fail,
        );
        if (listed.ok && listed.value.some((m) => !known.has(m.id))) fail('list: unknown id');
        const got = await outcome(
          () => recallEngine.get(g.maybe(() => g.pick(ids)) as string),
          fail,
        );
        if (got.ok && got.value !== null && !known.has(got.value.id)) fail('get: unknown id');
        // The cache must never answer a call differently: again (cached) and with noCache.
        const again = await outcome(
          () => recallEngine.recall(query as string, options as never),
          fail,
        );
        // (Only for plain objects: a spread would drop another prototype and what it provides.)
        const plain =
          options !== null &&
          typeof options === 'object' &&
          Object.getPrototypeOf(options) === Object.prototype;
        const fresh = plain
          ? await outcome(
              () => recallEngine.recall(query as string, { ...options, noCache: true }),
              fail,
            )
          : again;
        for (const other of [again, fresh]) {
          if (other.ok !== first.ok)
            fail(`outcome differs between calls: ${first.ok ? 'ok' : first.error.message}`);
          if (!other.ok && !first.ok && other.error.code !== first.error.code)
            fail(`codes differ: ${first.error.code} vs ${other.error.code}`);
          if (other.ok && first.ok && other.value.length !== first.value.length)
            fail('result counts differ between cached and fresh calls');
        }
      }
      console.info(`fuzz recall: ${counts.ok} answered, ${counts.error} rejected`);
      expect(counts.ok).toBeGreaterThan(0);
      expect(counts.error).toBeGreaterThan(0);
      expect((await recallEngine.stats()).memories).toBe(NOTES.length);
      expect(await recallEngine.verify()).toEqual([]);
    },
    TIMEOUT,
  );

  for (const [backend, embedderOf, cases] of BACKENDS) {
    const property = backend === 'dense model' ? 'writes' : `writes-${backend}`;
    it(
      `writes (${backend}): ${cases} random remember/rememberMany/update/forget/link/unlink/markUsed/import calls; failures change nothing, successes only what they should`,
      async () => {
        const fresh = async () => {
          const e = await createEngine({
            storage: 'memory',
            embedder: await embedderOf(),
            now,
            maxTextLength: MAX_TEXT,
          });
          await e.rememberMany(NOTES);
          return e;
        };
        let engine = await fresh();
        const tally: Record<string, { ok: number; error: number }> = {};
        let exported = await engine.export();
        let largest = 0;
        for (let i = 0; i < cases; i++) {
          if (i > 0 && i % SEGMENT === 0) {
            // A fresh store per segment keeps each export small; a segment replays from its start.
            largest = Math.max(largest, (await engine.stats()).memories);
            await settle(engine, failer(property, i - 1), await embedderOf());
            engine = await fresh();
            exported = await engine.export();
          }
          const g = new Gen(caseSeed(FUZZ_SEED, property, i));
          const fail: Fail = failer(property, i);
          clock += 1 + g.int(60_000);
          const before = exported;
          const lines = linesById(before);
          const ids = [...lines.keys()];
          const someId = () => (g.chance(0.85) && ids.length > 0 ? g.pick(ids) : g.string());
          const op = g.pick([
            'remember',
            'remember',
            'remember',
            'remember',
            'rememberMany',
            'rememberMany',
            'rememberMany',
            'update',
            'forget',
            'link',
            'unlink',
            'markUsed',
            'import',
          ]);
          let result: Outcome<unknown>;
          let input: unknown;
          let target: unknown;
          switch (op) {
            case 'remember':
              input = rememberInput(g, ids, i);
              result = await outcome(() => engine.remember(input as never), fail);
              break;
            case 'rememberMany':
              input = g.maybe(
                () => Array.from({ length: g.int(5) }, (_, k) => rememberInput(g, ids, i * 10 + k)),
                0.05,
              );
              result = await outcome(() => engine.rememberMany(input as never), fail);
              break;
            case 'update':
              target = someId();
              input = patch(g);
              result = await outcome(() => engine.update(target as string, input as never), fail);
              break;
            case 'forget':
              target = g.pick([
                () => someId(),
                () => someId(),
                () => [someId(), someId()],
                () => (g.chance(0.3) ? filter(g, ids) : g.any()),
                () => emptyLooking(g),
              ])();
              result = await outcome(() => engine.forget(target as never), fail);
              if (
                result.ok &&
                target !== null &&
                typeof target === 'object' &&
                !Array.isArray(target) &&
                Object.values(target).every(
                  (v) =>
                    v === undefined ||
                    (v !== null &&
                      typeof v === 'object' &&
                      !Array.isArray(v) &&
                      Object.keys(v).length === 0),
                )
              )
                fail(
                  `forget took a filter that sets no condition: ${String(result.value)} deleted`,
                );
              break;
            case 'link':
              target = someId();
              input = g.maybe(() => ({
                to: someId(),
                kind: g.maybe(() => g.pick(['related', "x'); DROP TABLE links; --"])),
                weight: g.maybe(() =>
                  g.pick([g.float() + 0.01, 5e-324, 2 ** 53 - 1, 2 ** 63, 1e300]),
                ),
              }));
              result = await outcome(() => engine.link(target as string, input as never), fail);
              break;
            case 'unlink':
              target = someId();
              input = g.maybe(() => g.pick([undefined, 'related', "x'); DROP TABLE links; --"]));
              result = await outcome(
                () => engine.unlink(target as string, someId(), input as never),
                fail,
              );
              break;
            case 'markUsed':
              target = someId();
              input = g.maybe(() => g.pick(['selected', 'used', 'discarded']));
              result = await outcome(() => engine.markUsed(target as string, input as never), fail);
              break;
            default:
              input = importText(g, before, i);
              result = await outcome(() => engine.import(input as string), fail);
          }
          (tally[op] ??= { ok: 0, error: 0 })[result.ok ? 'ok' : 'error']++;
          const after = await engine.export();
          exported = after;
          if (!result.ok) {
            if (after !== before)
              fail(`${op} failed (${result.error.message}) but changed the store`);
            continue;
          }
          const afterLines = linesById(after);
          const changed = [...afterLines]
            .filter(([id, l]) => lines.get(id) !== l)
            .map(([id]) => id);
          const removed = ids.filter((id) => !afterLines.has(id));
          if (op === 'remember' || op === 'rememberMany' || op === 'import') {
            // New rows only: the old export is a prefix of the new one.
            if (!after.startsWith(before)) fail(`${op} changed existing memories`);
            const items = (op === 'remember' ? [input] : op === 'rememberMany' ? input : []) as {
              text: string;
            }[];
            const returned = (op === 'remember' ? [result.value] : result.value) as string[];
            for (const [k, id] of (op === 'import' ? [] : returned).entries()) {
              const m = await engine.get(id);
              if (!m) fail(`returned id ${JSON.stringify(id)} cannot be read back`);
              // Documented: leading byte order marks are dropped, nothing else changes.
              if (!lines.has(id) && returned.indexOf(id) === k) {
                const wrong = misread(m, items[k] as unknown as Record<string, unknown>);
                if (wrong)
                  fail(`remembered ${wrong} did not read back exactly: ${JSON.stringify(m)}`);
              }
            }
          } else if (op === 'forget') {
            if (removed.length !== result.value)
              fail(`forget said ${String(result.value)}, removed ${removed.length}`);
            if (afterLines.size !== lines.size - removed.length) fail('forget added memories');
          } else {
            if (removed.length > 0 || afterLines.size !== lines.size)
              fail(`${op} removed memories`);
            const allowed = op === 'unlink' && result.value === 0 ? [] : [target as string];
            const stray = changed.filter((id) => !allowed.includes(id));
            if (stray.length > 0) fail(`${op} of ${String(target)} changed ${stray.join(', ')}`);
            if (op === 'update') {
              const wrong = misread(
                (await engine.get(target as string))!,
                input as Record<string, unknown>,
              );
              if (wrong) fail(`updated ${wrong} did not read back exactly`);
            }
            if (op === 'link') {
              // The link reads back exactly as given (kind and weight included).
              const spec = (typeof input === 'string' ? { to: input } : input) as {
                to: string;
                kind?: string;
                weight?: number;
              };
              const want = { to: spec.to, kind: spec.kind ?? 'related', weight: spec.weight ?? 1 };
              const line = JSON.parse(afterLines.get(target as string)!) as { links: unknown[] };
              if (!line.links.some((l) => JSON.stringify(l) === JSON.stringify(want)))
                fail(
                  `link did not read back: ${JSON.stringify(want)} not in ${JSON.stringify(line.links)}`,
                );
            }
          }
        }
        largest = Math.max(largest, (await engine.stats()).memories);
        await settle(engine, failer(property, cases - 1), await embedderOf());
        console.info(
          `fuzz ${property}: ${JSON.stringify(tally)}; stores of up to ${largest} memories`,
        );
        for (const op of [
          'remember',
          'rememberMany',
          'update',
          'forget',
          'link',
          'markUsed',
          'import',
        ])
          expect(tally[op]?.ok, `${op} never succeeded`).toBeGreaterThan(0);
      },
      TIMEOUT,
    );
  }
});

describe('numbers SQLite-WASM would not give back as stored', () => {
  it('times beyond the Date range and unsafe counts are refused, so export keeps working', async () => {
    const e = await createEngine({ storage: 'memory', embedder: await defaultEmbedder() });
    for (const createdAt of [2 ** 53, 1e17, -(2 ** 60), 8.64e15 + 1]) {
      const err = await e.remember({ text: 'far future', createdAt }).catch((x: unknown) => x);
      expect((err as AnamnesisError).code, String(createdAt)).toBe('INVALID_INPUT');
    }
    await e.remember({ id: 'edge', text: 'the last representable day', createdAt: 8.64e15 });
    const line = (patch: object) =>
      JSON.stringify({ type: 'memory', id: 'imp', text: 'imported', ...patch });
    for (const patch of [
      { accessCount: 2 ** 60 },
      { updatedAt: 1e17 },
      { createdAt: 1e17 },
      { usage: [{ event: 'used', at: 2 ** 53 }] },
    ]) {
      const err = await e.import(line(patch)).catch((x: unknown) => x);
      expect((err as AnamnesisError).code, JSON.stringify(patch)).toBe('INVALID_INPUT');
    }
    expect(JSON.parse((await e.export()).split('\n')[1]!)).toMatchObject({ createdAt: 8.64e15 });
    // A whole-number REAL of 2^63 or more comes back wrapped (1e300 as 0): weights stop at 2^53.
    await e.remember({ id: 'other', text: 'another memory' });
    for (const weight of [1e300, 2 ** 63, 2 ** 53]) {
      const err = await e.link('edge', 'other', { weight }).catch((x: unknown) => x);
      expect((err as AnamnesisError).code, String(weight)).toBe('INVALID_INPUT');
    }
    await e.link('edge', 'other', { weight: Number.MAX_SAFE_INTEGER });
    expect((await e.export()).includes(`"weight":${Number.MAX_SAFE_INTEGER}`)).toBe(true);
    await e.close();
  });
});

describe('the recall cache never answers an invalid call', () => {
  it('values JSON.stringify would merge (NaN vs null, Date vs string, undefined, functions) get distinct keys', async () => {
    const pairs: [unknown, unknown][] = [
      [{ minSimilarity: null }, { minSimilarity: NaN }],
      [{ filter: { after: new Date(0) } }, { filter: { after: new Date(0).toISOString() } }],
      [{}, { bogus: undefined }],
      [{}, { topK: () => 5 }],
      [{ topK: 3 }, { topK: 3n }],
    ];
    for (const [valid, invalid] of pairs) {
      await recallEngine.recall('kitten', valid as never);
      const err = await recallEngine.recall('kitten', invalid as never).catch((e: unknown) => e);
      expect(err, JSON.stringify(Object.keys(invalid as object))).toBeInstanceOf(AnamnesisError);
      expect((err as AnamnesisError).code).toBe('INVALID_INPUT');
    }
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const err = await recallEngine.recall('kitten', { graph: cycle }).catch((e: unknown) => e);
    expect((err as AnamnesisError).code).toBe('INVALID_INPUT');
  });
});
