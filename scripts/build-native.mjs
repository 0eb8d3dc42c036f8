// Builds the Node file store's native SQLite modules after `pnpm install` (the root's postinstall).
//
// pnpm-workspace.yaml leaves their own install scripts off: `prebuild-install || node-gyp rebuild`
// downloads a prebuilt binary and, where that is unreachable, builds from source, and node-gyp then
// downloads Node's headers too unless told where local ones are. pnpm 12 passes no npm setting
// (`nodedir` in .npmrc included) to a dependency's script, so on an offline machine the install
// failed. Here each module's own install script runs with `npm_config_nodedir` set to the headers
// that ship with this Node (`<prefix>/include/node`, as Debian's `nodejs` and the official tarballs
// lay them out) when their version is this Node's. A module that already loads is left alone.
//
// The notes app, the browser packages and the memory store need neither module: a failed build is
// a warning (the file store then says it cannot load SQLite), except under CI, where it fails.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const requireFromEngine = createRequire(join(root, 'packages/engine/package.json'));
const modules = ['better-sqlite3', 'better-sqlite3-multiple-ciphers'];

/** Node's own headers when they are on this machine and of this Node's version, else undefined. */
function localNodeDir() {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  const prefix = dirname(dirname(process.execPath));
  try {
    const header = readFileSync(join(prefix, 'include/node/node_version.h'), 'utf8');
    const part = (name) => header.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`))?.[1];
    const version = `v${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
    return version === process.version ? prefix : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the module at `dir` opens a database in a fresh Node (a build for this Node exists). */
function loads(dir) {
  return new Promise((resolve) => {
    const check = `new (require(${JSON.stringify(dir)}))(':memory:').close()`;
    spawn(process.execPath, ['-e', check], { stdio: 'ignore' }).on('exit', (code) =>
      resolve(code === 0),
    );
  });
}

/** Runs the module's own install script; resolves with its exit code and its output. */
function install(dir, nodeDir) {
  const script = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).scripts?.install;
  const env = { ...process.env };
  env.PATH = [join(dir, 'node_modules/.bin'), env.PATH].join(delimiter);
  if (nodeDir) env.npm_config_nodedir = nodeDir;
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', script], { cwd: dir, env });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

const nodeDir = localNodeDir();
const results = await Promise.all(
  modules.map(async (name) => {
    let dir;
    try {
      dir = dirname(requireFromEngine.resolve(`${name}/package.json`));
    } catch {
      return { name, ok: true, note: 'not installed' };
    }
    if (existsSync(join(dir, 'build/Release')) && (await loads(dir))) {
      return { name, ok: true, note: 'already built' };
    }
    const started = Date.now();
    const { code, output } = await install(dir, nodeDir);
    const ok = code === 0 && (await loads(dir));
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    return { name, ok, note: ok ? `built in ${seconds} s` : 'build failed', output };
  }),
);

let failed = false;
for (const { name, ok, note, output } of results) {
  console.log(`${name}: ${note}`);
  if (!ok) {
    failed = true;
    console.warn(output.split('\n').slice(-25).join('\n'));
  }
}
if (failed) {
  console.warn(
    [
      "The Node file store's SQLite could not be built (above). The notes app and the memory store",
      "do not need it; storage: 'file' does (python3, make, a C++ compiler, and Node's headers:",
      `${nodeDir ? `found in ${nodeDir}` : 'none found locally; set npm_config_nodedir=DIR'}).`,
      'Run `node scripts/build-native.mjs` again once fixed.',
    ].join('\n'),
  );
  if (process.env.CI) process.exit(1);
}
