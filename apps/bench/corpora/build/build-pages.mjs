// Builds ../pages/corpus.json: npm READMEs cut into passages as the browser extension cuts a page.
// Run: node apps/bench/corpora/build/build-pages.mjs (reads the READMEs under node_modules/.pnpm).
import { createdAt, fresh, writeCorpus } from './lib.mjs';
import { idName, pages } from './pages-lib.mjs';

const all = pages();
const memories = [];
all.forEach((p, pi) => {
  // One page is saved in one click: all its passages share a time (pages spread over the months).
  const time = createdAt(pi, all.length);
  p.chunks.forEach((chunk, i) => {
    memories.push({
      id: `p-${idName(p.name)}-${i}`,
      text: `${p.title}\n${chunk}`,
      session: p.url,
      kind: 'page',
      meta: { url: p.url, title: p.title, chunk: i },
      createdAt: time,
    });
  });
});
const byId = new Map(memories.map((m) => [m.id, m]));

// Each evidence is [id, a phrase the passage must contain]: the build fails, listing every such
// evidence, if a re-cut moves one.
const missing = [];
const q = (text, evidence) => {
  for (const [id, phrase] of evidence) {
    const m = byId.get(id);
    if (!m) missing.push(`no passage ${id} (${text})`);
    else if (!m.text.includes(phrase)) missing.push(`${id} lacks "${phrase}" (${text})`);
  }
  return { text, evidence: evidence.map(([id]) => id), type: 'how-to' };
};

// Written by hand after reading the passages; paraphrased, as a developer who half-remembers asks.
// These 53, written before issue 42, are all `dev` (see lib.mjs).
const old = [
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

// Added for issue 42, after the pages grew to 24 READMEs (five glob matchers, four caches or
// key-value stores, four config-format parsers, three source-map tools, three option parsers):
// written by hand after reading the passages; some name the library, as people do when they
// remember it, most describe it. Fresh split: every third from the second (lib.mjs, `fresh`).
const added = fresh([
  q('how do I test a single file path against a glob with the matcher npm uses internally?', [
    ['p-minimatch-8', 'Tests a path against the pattern'],
  ]),
  q('can a malicious glob pattern make my matcher hang, and how is that limited?', [
    ['p-minimatch-1', 'A dedicated attacker'],
    ['p-minimatch-19', 'nested extglobs'],
    ['p-picomatch-12', 'maxExtglobRecursion'],
  ]),
  q(
    'with minimatch, how do I make "*.js" also match files in subfolders, comparing only the file name?',
    [['p-minimatch-12', 'against the basename of the path']],
  ),
  q('how do I turn a glob into one regular expression with minimatch?', [
    ['p-minimatch-6', 'makeRe method'],
  ]),
  q(
    'while walking directories, how do I know if a folder could still contain a match for the glob?',
    [['p-minimatch-13', 'partial: true']],
  ),
  q('how do I escape a file name that contains brackets or stars before using it in a glob?', [
    ['p-minimatch-8', 'Escape all magic characters'],
    ['p-fast-glob-7', 'escapePath(path)'],
  ]),
  q('should I write glob patterns with backslashes on Windows?', [
    ['p-minimatch-3', 'Please only use forward-slashes'],
    ['p-fast-glob-2', 'Always use forward-slashes'],
    ['p-fast-glob-22', 'How to write patterns on Windows'],
    ['p-glob-5', 'windowsP'],
    ['p-micromatch-31', 'reserves backslashes for escaping'],
  ]),
  q('how do I compile a glob once into a function and test many strings with it?', [
    ['p-picomatch-2', 'Creates a matcher function'],
    ['p-micromatch-5', 'Returns a matcher function'],
  ]),
  q('how do I split a glob like !./foo/*.js into its base directory and the glob part?', [
    ['p-picomatch-6', 'picomatch.scan'],
  ]),
  q('how do I use the fast glob matcher in a browser, without Node path and OS detection?', [
    ['p-picomatch-3', 'picomatch/posix'],
  ]),
  q('how do I give a picomatch matcher patterns that should never match?', [
    ['p-picomatch-11', '| ignore |'],
  ]),
  q('what do POSIX classes such as [:alpha:] match in a glob?', [
    ['p-picomatch-23', '[:alpha:]'],
    ['p-micromatch-30', '[:alpha:]'],
  ]),
  q('how can I log every string that my glob matcher skipped because of an ignore pattern?', [
    ['p-picomatch-18', 'options.onIgnore'],
  ]),
  q('how do the bash extended patterns @(a|b), *(a) and !(a) work in JavaScript globs?', [
    ['p-picomatch-21', '@(pattern)'],
    ['p-micromatch-28', '@(pattern)'],
    ['p-glob-30', '@(pattern|pat*|pat?erN)'],
  ]),
  q('I am moving from minimatch to micromatch, what do I call instead?', [
    ['p-micromatch-2', 'Switching from minimatch'],
    ['p-micromatch-4', 'Use micromatch.isMatch() instead of minimatch()'],
  ]),
  q('how do I check that one string satisfies all of several glob patterns at once?', [
    ['p-micromatch-10', 'Returns true if all of the given patterns'],
    ['p-micromatch-11', "mm.all('foo.js'"],
  ]),
  q('how do I keep only the keys of an object whose names match a glob?', [
    ['p-micromatch-7', '.matchKeys'],
    ['p-micromatch-8', 'The object with keys to filter'],
  ]),
  q('how do I check whether a glob matches anywhere inside a path, not the whole path?', [
    ['p-micromatch-7', 'can match any part of the string'],
  ]),
  q('how do I strip the leading ./ from paths before they are matched?', [
    ['p-micromatch-23', 'options.format'],
  ]),
  q('my pattern built with path.join does not match on Windows, why?', [
    ['p-micromatch-32', 'path.join'],
  ]),
  q('how do I make glob matching ignore upper and lower case?', [
    ['p-minimatch-11', 'nocase: true'],
    ['p-picomatch-12', '| nocase |'],
    ['p-micromatch-18', 'Perform case-insensitive matching'],
    ['p-fast-glob-19', 'caseSensitiveMatch'],
    ['p-glob-20', 'nocase Perform a case-insensitive match'],
  ]),
  q('how do I get file sizes and modification times together with the paths fast-glob finds?', [
    ['p-fast-glob-17', 'Enables an object mode'],
  ]),
  q('how do I get fast-glob to return files whose names start with a period?', [
    ['p-fast-glob-5', '{ dot: true }'],
    ['p-fast-glob-19', 'Allow patterns to match entries that begin with a period'],
  ]),
  q('how do I stop fast-glob from descending more than two folders deep?', [
    ['p-fast-glob-12', 'maximum depth'],
  ]),
  q('how do I keep fast-glob from even reading node_modules?', [
    ['p-fast-glob-23', 'How to exclude directory from reading'],
    ['p-fast-glob-24', 'the directory will not be read'],
  ]),
  q('how do I limit how many file system calls the glob library makes in parallel?', [
    ['p-fast-glob-10', 'UV_THREADPOOL_SIZE'],
    ['p-fast-glob-11', 'concurrency option'],
  ]),
  q('how do I turn a Windows folder path like C:\\Program Files (x86) into a glob pattern?', [
    ['p-fast-glob-8', 'convertPathToPattern(path)'],
    ['p-fast-glob-9', 'convertPathToPattern'],
  ]),
  q('which fast-glob options correspond to node-glob options like nodir and matchBase?', [
    ['p-fast-glob-25', '| nodir | onlyFiles |'],
  ]),
  q('how do I read glob results as a stream instead of one big array?', [
    ['p-fast-glob-5', 'fg.stream(patterns'],
    ['p-glob-12', 'globStream(pattern'],
  ]),
  q('how do I give up on a glob search after 100 milliseconds?', [
    ['p-glob-1', 'AbortSignal.timeout(100)'],
    ['p-glob-25', 'signal An AbortSignal'],
  ]),
  q('how do I loop over glob matches one by one as they are found?', [
    ['p-glob-2', 'for await (const file of g)'],
    ['p-glob-12', 'Alias: glob.iterate.sync()'],
  ]),
  q('how do I get a trailing slash on the directories that glob returns?', [
    ['p-glob-7', '-m --mark'],
    ['p-glob-20', 'mark Add a / character to directory matches'],
  ]),
  q('with node-glob, how do I ignore a folder and everything under it?', [
    ['p-glob-22', 'To ignore all children within a directory'],
    ['p-glob-3', 'childrenIgnored'],
  ]),
  q('is node-glob or fast-glob faster, and when should I pick globby instead?', [
    ['p-glob-39', 'globby_'],
    ['p-glob-40', 'fast-glob is around 10-20% faster'],
    ['p-glob-41', '20-50% slower than fast-glob'],
  ]),
  q('how do I sort glob results by modification time?', [['p-glob-3', 'timeSortedFiles']]),
  q('can a file that glob returned already be gone when I open it?', [
    ['p-glob-37', 'may have been deleted'],
  ]),
  q('how do I make node-glob include hidden dot files?', [
    ['p-glob-19', 'dot Include .dot files'],
    ['p-glob-31', 'a/.*/c'],
  ]),
  q('how do I talk to Redis, SQLite or Postgres through one key-value API?', [
    ['p-keyv-0', 'consistent interface for key-value storage'],
    ['p-keyv-5', 'KeyvSqlite'],
  ]),
  q("how do I stop two apps sharing one Redis database from overwriting each other's keys?", [
    ['p-keyv-6', 'avoid key collis'],
    ['p-keyv-19', 'namespace for the current instance'],
  ]),
  q('how do I gzip values before they are stored in the key-value store?', [
    ['p-keyv-17', '@keyv/compress-gzip'],
    ['p-keyv-25', 'compression package'],
  ]),
  q('how do I run my own code on every get, set and delete of the key-value store?', [
    ['p-keyv-8', 'hooks for get, set, and delete'],
    ['p-keyv-9', 'Cache miss for key'],
  ]),
  q('how do I keep more than 16 million entries in memory when a Map stops at 2^24?', [
    ['p-keyv-14', '16.7 million entries'],
    ['p-keyv-15', '@keyv/bigmap'],
    ['p-cacheable-memory-7', 'scale past the 16,777,216'],
  ]),
  q('how do I count cache hits and misses in keyv?', [
    ['p-keyv-28', 'stats: true'],
    ['p-keyv-29', 'Accessing Stats'],
  ]),
  q(
    'how do I make keyv throw when the Redis connection fails instead of only emitting an error event?',
    [
      ['p-keyv-7', 'emitErrors: false'],
      ['p-keyv-27', 'throw an error if any operation fails'],
      ['p-keyv-28', 'throwOnConnectErrors'],
    ],
  ),
  q('how do I store values that JSON cannot represent, with my own serializer?', [
    ['p-keyv-11', 'your own serialization functions'],
  ]),
  q('how do I cache the result of a function for an hour, memoization style?', [
    ['p-cacheable-memory-29', 'wrap a function in a cache'],
    ['p-cacheable-memory-30', 'ttl of 1 hour'],
  ]),
  q("can I write a time to live as '1h' instead of milliseconds?", [
    ['p-cacheable-memory-5', "'1h'"],
    ['p-cacheable-memory-34', 'shorthand format such as 1h'],
  ]),
  q('how do I bound the in-memory cache to a number of keys, evicting the least recently used?', [
    ['p-cacheable-memory-2', 'lruSize'],
    ['p-cacheable-memory-12', 'doubly linked list'],
  ]),
  q('how do I set an upper limit on how long any entry may live, whatever ttl it was given?', [
    ['p-cacheable-memory-16', 'No entry can live longer'],
    ['p-cacheable-memory-26', 'maxTtl'],
  ]),
  q('why does changing an object I got from the cache not change the cached copy?', [
    ['p-cacheable-memory-24', 'useClones'],
  ]),
  q('how do I plug the in-memory cache into Keyv as its store?', [
    ['p-cacheable-memory-28', 'KeyvCacheableMemory'],
  ]),
  q('how do I get a value from the cache or compute and store it if it is missing, in one call?', [
    ['p-cacheable-memory-33', 'cache.getOrSet'],
  ]),
  q('my async hook on the memory cache never runs, why?', [
    ['p-cacheable-memory-23', 'async handler will not run'],
  ]),
  q('which YAML library keeps comments and blank lines when I edit and write the file back?', [
    ['p-yaml-0', 'writing YAML comments and blank lines'],
  ]),
  q('how do I read every document of a multi-document YAML string with the yaml package?', [
    ['p-yaml-3', 'parseAllDocuments'],
  ]),
  q('how does the yaml package write a string that contains newlines?', [['p-yaml-5', 'block: |']]),
  q('can my JSON config file have comments, unquoted keys and trailing commas?', [
    ['p-json5-0', 'easier to write and maintain _by hand_'],
    ['p-json5-2', 'Single and multi-line comments are allowed'],
  ]),
  q('how do I convert a JSON5 file into plain JSON on the command line?', [
    ['p-json5-6', 'this package includes a CLI'],
    ['p-json5-7', '--out-file'],
  ]),
  q('how do I make the JSON5 serializer use single quotes for strings?', [
    ['p-json5-6', 'quote: A String representing the quote character'],
  ]),
  q('how do I require() a .json5 config file directly in Node?', [
    ['p-json5-6', "require('json5/lib/register')"],
  ]),
  q('how do I transform values while parsing JSON5?', [['p-json5-4', 'reviver']]),
  q('how do I parse a TOML file in JavaScript and write it back?', [
    ['p-smol-toml-0', 'import { parse, stringify }'],
  ]),
  q('how do I read integers larger than 2^53 from TOML without losing digits?', [
    ['p-smol-toml-5', 'BigInt'],
    ['p-smol-toml-6', 'asNeeded'],
  ]),
  q('is it safe to parse untrusted TOML that contains __proto__ keys?', [
    ['p-smol-toml-3', 'proto on the object'],
    ['p-smol-toml-4', 'reject documents with potentially unsafe properties'],
  ]),
  q('how are TOML dates and local times returned, Date objects or Temporal?', [
    ['p-smol-toml-2', 'Temporal API'],
    ['p-smol-toml-9', 'Temporal.PlainDate'],
  ]),
  q('which JavaScript TOML parser is the fastest?', [
    ['p-smol-toml-14', 'smol-toml@1.9.0 (Date)'],
    ['p-smol-toml-17', 'smol-toml@1.9.0'],
  ]),
  q('how do I write a JavaScript Date into TOML as an offset date-time?', [
    ['p-smol-toml-13', 'wrapAsOffsetDateTime'],
  ]),
  q('how do I find where a line and column of minified code came from in the original source?', [
    ['p-source-map-js-9', 'Returns the original source, line, and column'],
    ['p-source-map-js-10', 'The original source file'],
  ]),
  q('how do I build a source map by hand, one mapping at a time?', [
    ['p-source-map-js-6', 'With SourceMapGenerator (low level API)'],
    ['p-source-map-js-18', 'Add a single mapping'],
  ]),
  q('how do I put the original source code inside the source map itself?', [
    ['p-source-map-js-19', 'setSourceContent'],
    ['p-source-map-js-24', 'node.setSourceContent'],
  ]),
  q('the code went through two tools, how do I chain their source maps into one?', [
    ['p-source-map-js-19', 'applySourc'],
    ['p-source-map-js-20', 'both SourceMaps are in the same directory'],
  ]),
  q('how is source-map-js different from the original source-map package?', [
    ['p-source-map-js-0', 'fork of original source-map@0.6'],
  ]),
  q('how do I walk over every mapping of a source map?', [
    ['p-source-map-js-15', 'Iterate over each mapping'],
  ]),
  q('how do I emit generated code from snippets that remember their original positions?', [
    ['p-source-map-js-5', 'With SourceNode (high level API)'],
    ['p-source-map-js-21', 'snippets of generated JavaScript source code'],
    ['p-source-map-js-28', 'toStringWithSourceMap'],
  ]),
  q('how do I make the source map consumer skip bad mappings instead of throwing?', [
    ['p-source-map-js-17', 'ignoreInvalidMapping'],
  ]),
  q('how do I decode the "mappings" string of a source map into arrays of numbers?', [
    ['p-jridgewell-sourcemap-codec-0', 'Encode/decode the mappings'],
    ['p-jridgewell-sourcemap-codec-1', 'separates lines'],
  ]),
  q('which library decodes source map mappings fastest and with the least memory?', [
    ['p-jridgewell-sourcemap-codec-3', 'Fastest is decode'],
    ['p-jridgewell-sourcemap-codec-6', 'Decode speed'],
  ]),
  q('how do I build a Node CLI with subcommands and help output generated for me?', [
    ['p-sade-0', 'building command-line interface'],
    ['p-sade-23', 'automatically attached to the --help'],
  ]),
  q('how do I write a CLI that has just one command and takes an optional directory, like sirv?', [
    ['p-sade-5', 'isSingle'],
    ['p-sade-6', 'sirv-cli'],
    ['p-sade-10', "Default: name.includes(' ')"],
  ]),
  q("how do I let users type 'i' for my CLI's install command?", [
    ['p-sade-8', 'aliases'],
    ['p-sade-13', 'opts.alias'],
  ]),
  q('how do I declare required and optional arguments of a CLI command?', [
    ['p-sade-12', 'required arguments _before_ optional arguments'],
  ]),
  q('with sade, how do I react to a flag the program does not know?', [
    ['p-sade-21', 'unspecified option flag'],
  ]),
  q('how do I parse the command line but run the matching handler myself later?', [
    ['p-sade-22', 'will not immediately execute the action handler'],
  ]),
  q('how do I read a flag with a dash in its name, like --global-config, in the action handler?', [
    ['p-sade-19', 'hyphenated flag names'],
  ]),
  q('how do I parse command-line flags in Node without installing a library?', [
    ['p-pkgjs-parseargs-0', 'util.parseArgs'],
    ['p-pkgjs-parseargs-2', "from 'node:util'"],
  ]),
  q('how do I support --no-color style options with util.parseArgs?', [
    ['p-pkgjs-parseargs-5', 'like --no-color'],
    ['p-pkgjs-parseargs-6', 'last one wins'],
  ]),
  q('parseArgs throws on my file names, how do I accept positional arguments?', [
    ['p-pkgjs-parseargs-11', 'allowPositionals: true'],
  ]),
  q('does util.parseArgs print a usage or help text?', [
    ['p-pkgjs-parseargs-12', 'no usage/help at all'],
  ]),
  q('how do I give a parseArgs option a one-letter alias and a default value?', [
    ['p-pkgjs-parseargs-1', 'A single character alias'],
  ]),
  q('is -abc read as three separate short flags?', [
    ['p-pkgjs-parseargs-14', '-bar expands to -b, -a, -r'],
    ['p-yargs-parser-6', 'short-option-groups'],
  ]),
  q('how do I count repeated -vvv flags as a verbosity level with yargs-parser?', [
    ['p-yargs-parser-3', 'opts.count'],
  ]),
  q('how do I keep yargs-parser from adding camelCase copies of my dashed options?', [
    ['p-yargs-parser-6', 'camel-case-expansion'],
    ['p-yargs-parser-11', 'camel-case-expansion'],
  ]),
  q('how do I collect a flag given several times, like -x 1 -x 2, into an array?', [
    ['p-yargs-parser-8', 'coerced into an array when duplicated'],
  ]),
  q('how do I stop parsing options at the first positional argument?', [
    ['p-yargs-parser-10', 'halt-at-non-option'],
  ]),
  q('how do I get the arguments that come after -- separately?', [
    ['p-yargs-parser-5', 'end-of-options flag'],
  ]),
  q('how do I keep --foo=99.3 as a string instead of a number?', [['p-yargs-parser-7', '"99.3"']]),
  q('how do I keep a small key-value cache on disk between runs of my script?', [
    ['p-flat-cache-0', 'using files to persist'],
    ['p-flat-cache-9', 'save(force'],
  ]),
  q('how do I choose the folder where the file cache is saved?', [
    ['p-flat-cache-7', 'cacheDir?'],
    ['p-flat-cache-3', 'cacheAltDirectory'],
  ]),
  q('how do I load a very large cache file in chunks and show progress?', [
    ['p-flat-cache-8', 'loadFileStream'],
    ['p-flat-cache-12', 'progressCount'],
  ]),
  q('how do I make the file cache write itself to disk every few minutes?', [
    ['p-flat-cache-2', 'persistInterval'],
  ]),
]);
if (missing.length > 0) throw new Error(`evidence moved:\n${missing.join('\n')}`);

const questions = [...old, ...added];

writeCorpus(
  'pages',
  'Web pages: 8 npm package READMEs made plain text and cut into 800-character passages as the browser extension cuts them',
  memories,
  questions,
);
