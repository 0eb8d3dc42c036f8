// Checks every corpus under apps/bench/corpora/: the format the benchmark reads, unique ids,
// evidence that exists, the splits (every corpus needs both: the old questions are dev, those added
// for issue 42 carry the fresh held-out split), and counts. Run:
// node apps/bench/corpora/build/validate.mjs
import { readdirSync, readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);
// [memories, questions]
const MIN = { notes: [1000, 150], pages: [500, 150], 'lang-*': [500, 150] };
const TYPES = new Set(['known-item', 'topical', 'how-to']);
let failures = 0;
const fail = (name, msg) => {
  failures++;
  console.log(`  FAIL ${name}: ${msg}`);
};

for (const name of readdirSync(root).sort()) {
  if (name === 'build' || !statSync(new URL(name, root)).isDirectory()) continue;
  const file = new URL(`${name}/corpus.json`, root);
  const bytes = statSync(file).size;
  const c = JSON.parse(readFileSync(file, 'utf8'));
  if (c.name !== name) fail(name, `name is ${c.name}`);
  if (typeof c.description !== 'string' || !c.description) fail(name, 'no description');
  if (!Number.isInteger(c.askedAt)) fail(name, 'askedAt is not an integer');
  const ids = new Set();
  for (const m of c.memories) {
    if (ids.has(m.id)) fail(name, `duplicate id ${m.id}`);
    ids.add(m.id);
    if (!m.text || typeof m.session !== 'string' || !m.kind || typeof m.meta !== 'object')
      fail(name, `memory ${m.id} lacks a field`);
    if (!(m.createdAt < c.askedAt)) fail(name, `memory ${m.id} created after askedAt`);
  }
  const seen = new Set();
  const splits = { dev: 0, 'held-out': 0 };
  for (const q of c.questions) {
    if (seen.has(q.text)) fail(name, `duplicate question ${q.text}`);
    seen.add(q.text);
    if (!(q.split in splits)) fail(name, `bad split ${q.split}`);
    else splits[q.split]++;
    if (!TYPES.has(q.type)) fail(name, `bad type ${q.type}`);
    if (!Array.isArray(q.evidence) || q.evidence.length === 0) fail(name, `no evidence: ${q.text}`);
    for (const e of q.evidence) if (!ids.has(e)) fail(name, `unknown evidence ${e}`);
    if (new Set(q.evidence).size !== q.evidence.length) fail(name, `repeated evidence: ${q.text}`);
  }
  if (splits.dev === 0) fail(name, 'no dev question');
  if (splits['held-out'] === 0) fail(name, 'no held-out question');
  const [minM, minQ] = MIN[name.startsWith('lang-') ? 'lang-*' : name];
  if (minM && c.memories.length < minM) fail(name, `only ${c.memories.length} memories`);
  if (c.questions.length < minQ) fail(name, `only ${c.questions.length} questions`);
  if (name.startsWith('lang-') && new Set(c.memories.map((m) => m.session)).size < 6)
    fail(name, 'fewer than 6 pages');
  if (bytes > 1024 * 1024) fail(name, `${bytes} bytes`);
  const types = {};
  for (const q of c.questions) types[q.type] = (types[q.type] ?? 0) + 1;
  const ev = c.questions.reduce((a, q) => a + q.evidence.length, 0) / c.questions.length;
  console.log(
    `${name.padEnd(8)} ${String(c.memories.length).padStart(4)} memories (${new Set(c.memories.map((m) => m.session)).size} sessions), ` +
      `${c.questions.length} questions: ${splits.dev} dev / ${splits['held-out']} held-out; ` +
      `${Object.entries(types)
        .map(([t, n]) => `${t} ${n}`)
        .join(', ')}; ${ev.toFixed(2)} evidence/question; ${(bytes / 1024).toFixed(0)} KB`,
  );
}
console.log(failures === 0 ? 'all corpora valid' : `${failures} problem(s)`);
process.exitCode = failures === 0 ? 0 : 1;
