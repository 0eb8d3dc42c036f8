// Builds ../pages/corpus.json: npm READMEs cut into passages as the browser extension cuts a page.
// Run: node apps/bench/corpora/build/build-pages.mjs (reads the READMEs under node_modules/.pnpm).
import { createdAt, writeCorpus } from './lib.mjs';
import { pages } from './pages-lib.mjs';

const all = pages();
const memories = [];
all.forEach((p, pi) => {
  // One page is saved in one click: all its passages share a time (pages spread over the months).
  const time = createdAt(pi, all.length);
  p.chunks.forEach((chunk, i) => {
    memories.push({
      id: `p-${p.name}-${i}`,
      text: `${p.title}\n${chunk}`,
      session: p.url,
      kind: 'page',
      meta: { url: p.url, title: p.title, chunk: i },
      createdAt: time,
    });
  });
});
const byId = new Map(memories.map((m) => [m.id, m]));

// Each evidence is [id, a phrase the passage must contain]: the build fails if a re-cut moves it.
const q = (text, evidence) => {
  for (const [id, phrase] of evidence) {
    const m = byId.get(id);
    if (!m) throw new Error(`no passage ${id} (${text})`);
    if (!m.text.includes(phrase)) throw new Error(`${id} lacks "${phrase}" (${text})`);
  }
  return { text, evidence: evidence.map(([id]) => id), type: 'how-to' };
};

// Written by hand after reading the passages; paraphrased, as a developer who half-remembers asks.
const questions = [
  q("how do I make a worker's function callable from the main thread?", [
    ['p-comlink-2', 'Comlink.expose(obj)'],
    ['p-comlink-5', 'Comlink.wrap(endpoint)'],
  ]),
  q('how can a worker call back into a function that lives on the page?', [
    ['p-comlink-3', 'Comlink.proxy(callback)'],
    ['p-comlink-7', 'useful for callbacks'],
  ]),
  q('how do I hand a big binary buffer to a worker without it being copied?', [
    ['p-comlink-6', 'structured cloning'],
    ['p-comlink-7', 'Comlink.transfer(data'],
  ]),
  q('how do I use the RPC wrapper with a worker shared between several tabs?', [
    ['p-comlink-3', 'SharedWorker you have to'],
    ['p-comlink-4', 'Comlink.wrap(worker.port)'],
  ]),
  q('my DOM event listener that I passed to the worker never gets called, how to fix it?', [
    ['p-comlink-8', 'transfer handlers'],
    ['p-comlink-9', 'event.target.id'],
  ]),
  q('how do I let a worker proxy and its object be garbage collected when I am done?', [
    ['p-comlink-9', 'releaseProxy method'],
    ['p-comlink-10', 'WeakRef'],
  ]),
  q('how can I call functions in an iframe the same way as in a worker?', [
    ['p-comlink-11', 'windowEndpoint()'],
  ]),
  q('can I use the worker RPC library with Node worker threads?', [
    ['p-comlink-12', 'worker_threads'],
  ]),
  q('how do I store a value in IndexedDB with one call and handle failure?', [
    ['p-idb-keyval-2', "set('hello', 'world')"],
  ]),
  q('how do I write many key/value pairs at once so that either all or none are saved?', [
    ['p-idb-keyval-3', 'atomic'],
  ]),
  q('how do I increment a stored counter without two async writes clobbering each other?', [
    ['p-idb-keyval-4', 'non-atomic'],
    ['p-idb-keyval-5', "update('counter'"],
  ]),
  q('how do I list every key in the browser key-value store?', [
    ['p-idb-keyval-6', 'Get all keys in the store'],
  ]),
  q('how do I use the tiny IndexedDB store on Internet Explorer 11?', [
    ['p-idb-keyval-1', 'idb-keyval/compat'],
  ]),
  q('how do I make the key-value store use a different database name?', [
    ['p-idb-keyval-7', 'custom stores'],
  ]),
  q('how do I print raw HTML from a template variable without escaping it?', [
    ['p-mustache-4', 'triple mustache'],
    ['p-mustache-5', '{{{company}}}'],
  ]),
  q('how do I repeat a block of a template for every item of an array?', [
    ['p-mustache-6', 'A section begins with a pound'],
    ['p-mustache-7', 'rendered once for each item'],
  ]),
  q('how do I show a "nothing here" message in a template when a list is empty?', [
    ['p-mustache-9', 'Inverted Sections'],
  ]),
  q('how do I include one template inside another and pass it the same data?', [
    ['p-mustache-9', 'Partials begin'],
    ['p-mustache-10', 'inherit the calling context'],
    ['p-mustache-11', 'object of partials'],
  ]),
  q(
    'my text already uses double curly braces, how do I switch the template tags to something else?',
    [
      ['p-mustache-11', 'Custom Delimiters'],
      ['p-mustache-12', 'Set Delimiter tags'],
    ],
  ),
  q('how do I render a template to an HTML file from an npm build script?', [
    ['p-mustache-13', 'Command line tool'],
    ['p-mustache-14', 'npm run build'],
  ]),
  q('can I parse a template ahead of time so later renders are faster?', [
    ['p-mustache-13', 'Mustache.parse(template)'],
  ]),
  q('how do I load a template kept in a separate file and render it in the browser?', [
    ['p-mustache-3', 'Load External Templates'],
  ]),
  q('how do I leave a note inside a template that does not show in the output?', [
    ['p-mustache-9', 'Comments begin with a bang'],
  ]),
  q('how do I make cached entries expire after five minutes?', [
    ['p-lru-cache-0', 'you _may_ set a TTL'],
    ['p-lru-cache-2', 'ttl: 1000 * 60 * 5'],
  ]),
  q('how do I run clean-up code when an entry gets kicked out of the cache?', [
    ['p-lru-cache-2', 'dispose:'],
  ]),
  q('how do I bound the cache by how big the entries are rather than how many?', [
    ['p-lru-cache-2', 'sizeCalculation'],
    ['p-lru-cache-4', 'If maxSize is set'],
    ['p-lru-cache-5', 'must_ be a positive'],
  ]),
  q('why does the cache say a key is missing right after I stored undefined under it?', [
    ['p-lru-cache-7', 'never stores undefined'],
  ]),
  q('how do I fake the clock in tests for time-to-live behaviour?', [
    ['p-lru-cache-15', 'performance or Date objects'],
    ['p-lru-cache-16', 'perf option'],
    ['p-lru-cache-17', 'now: () => myClockTime'],
  ]),
  q('how do I get metrics or traces for every cache operation?', [
    ['p-lru-cache-8', 'diagnostics_channel'],
    ['p-lru-cache-9', "tracingChannel('lru-cache')"],
  ]),
  q(
    'what should I use if I only need entries to expire by time, not least-recently-used eviction?',
    [
      ['p-lru-cache-0', '@isaacs/ttlcache'],
      ['p-lru-cache-5', 'consider using a Map object'],
      ['p-lru-cache-6', 'not an lru-cache'],
    ],
  ),
  q('how do I start a minimal websocket server in Node that echoes what it receives?', [
    ['p-ws-6', 'Simple server'],
  ]),
  q('how do I relay a websocket message to every connected client?', [
    ['p-ws-9', 'Server broadcast'],
    ['p-ws-10', 'wss.clients.forEach'],
  ]),
  q('how do I notice that a websocket peer has silently gone away and drop it?', [
    ['p-ws-13', 'pulling the cord'],
    ['p-ws-14', 'Pong messages are automatically sent'],
    ['p-ws-15', "client.on('ping', heartbeat)"],
  ]),
  q('how do I get the real client IP for a websocket when the server sits behind nginx?', [
    ['p-ws-12', 'X-Forwarded-For'],
  ]),
  q('how do I turn on compression of websocket messages, and is it a good idea?', [
    ['p-ws-2', 'permessage-deflate'],
    ['p-ws-3', 'significant overhead'],
    ['p-ws-4', 'zlibDeflateOptions'],
  ]),
  q('how do I reject a websocket connection unless the user is logged in?', [
    ['p-ws-8', 'Client authentication'],
    ['p-ws-9', '401 Unauthorized'],
  ]),
  q('how do I open a websocket connection through a corporate proxy from Node?', [
    ['p-ws-15', 'https-proxy-agent'],
  ]),
  q('can I use the Node websocket package in a web page?', [
    ['p-ws-0', 'does not work in the browser'],
  ]),
  q('how do I serve two websocket endpoints on different paths of one HTTP server?', [
    ['p-ws-7', 'Multiple servers sharing'],
    ['p-ws-8', "pathname === '/foo'"],
  ]),
  q('which function should I use to read YAML that comes from users I do not trust?', [
    ['p-js-yaml-2', 'safe for untrusted data'],
    ['p-js-yaml-4', 'Use with care with untrusted sources'],
    ['p-js-yaml-5', 'untrusted_code'],
  ]),
  q('how do I read a YAML file that holds several documents one after another?', [
    ['p-js-yaml-4', 'does not understand multi-document'],
    ['p-js-yaml-5', 'safeLoadAll'],
  ]),
  q('how do I write an object out as YAML with its keys in alphabetical order?', [
    ['p-js-yaml-7', 'sortKeys'],
    ['p-js-yaml-8', "'sortKeys': true"],
  ]),
  q('how do I check a YAML file for errors from the terminal?', [
    ['p-js-yaml-0', 'CLI executable'],
  ]),
  q('how do I make the YAML dumper write null as a tilde?', [
    ['p-js-yaml-8', '"canonical" -> "~"'],
  ]),
  q('how do I patch a few characters of a JS file and still produce a source map for the result?', [
    ['p-magic-string-0', 'light modifications'],
    ['p-magic-string-1', "s.update(0, 8, 'answer')"],
    ['p-magic-string-4', 'Generates a version 3 sourcemap'],
  ]),
  q('how do I join several source files into one bundle with a combined source map?', [
    ['p-magic-string-12', 'MagicString.Bundle'],
    ['p-magic-string-13', 'bundle.addSource'],
    ['p-magic-string-14', 'As an alternative syntax'],
  ]),
  q('how do I cut a range of code and put it somewhere else in the string?', [
    ['p-magic-string-7', 's.move( start, end, index )'],
  ]),
  q('how do I delete a span of the original source text?', [
    ['p-magic-string-10', 's.remove( start, end )'],
  ]),
  q('how do I indent every line of the generated code but skip some ranges?', [
    ['p-magic-string-6', 's.indent( prefix[, options] )'],
  ]),
  q('how do I filter a list of file paths with gitignore rules in JavaScript?', [
    ['p-ignore-1', 'ig.filter(paths)'],
    ['p-ignore-4', 'Filters the given array of pathnames'],
  ]),
  q('how do I make gitignore-style pattern matching case-sensitive?', [
    ['p-ignore-8', 'options.ignorecase'],
  ]),
  q('why does checking a path like ./foo against the ignore rules throw an error?', [
    ['p-ignore-5', 'WRONG, an error will be thrown'],
    ['p-ignore-9', 'allowRelativePaths is true'],
  ]),
  q("how do I load the rules from my project's .gitignore file into the matcher?", [
    ['p-ignore-4', 'readFileSync(filenameOfGitignore)'],
  ]),
];

writeCorpus(
  'pages',
  'Web pages: 8 npm package READMEs made plain text and cut into 800-character passages as the browser extension cuts them',
  memories,
  questions,
);
