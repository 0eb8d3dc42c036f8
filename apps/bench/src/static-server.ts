/**
 * A static file server as a typical one serves a built app (`bench:size`): text, JavaScript, JSON,
 * wasm and SVG compressed (brotli when the browser accepts it, else gzip; both at level 6, nginx's
 * default for brotli and zlib's for gzip), already-compressed or opaque binary files (images, zips,
 * `.onnx` weights) as they are; `Cache-Control: no-cache` with an ETag (a repeat request is a 304),
 * or, with `validators: false`, as many plain servers do, neither (no ETag, no Last-Modified, no
 * Cache-Control: a browser cannot revalidate, it downloads again); `index.html` for a path that is
 * not a file (a single-page app).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.onnx': 'application/octet-stream',
  '.png': 'image/png',
  '.zip': 'application/zip',
};

/** Extensions a typical static server compresses (text-like types and wasm). */
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.webmanifest',
  '.txt',
  '.svg',
  '.wasm',
]);

/** Whether a typical static server compresses a file of this path. */
export function compressible(path: string): boolean {
  return COMPRESSIBLE.has(extname(path).toLowerCase());
}

/** The file's bytes as a server sends them: gzip, brotli (level 6) and as it is. */
export interface Encoded {
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
}

const LEVEL = 6;

/** A file's encodings (compressed only when {@link compressible}; otherwise all three are the file). */
export function encode(path: string, raw: Buffer = readFileSync(path)): Encoded {
  if (!compressible(path)) return { raw, gzip: raw, br: raw };
  return {
    raw,
    gzip: gzipSync(raw, { level: LEVEL }),
    br: brotliCompressSync(raw, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: LEVEL,
        [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    }),
  };
}

/** A running server and what it sent. */
export interface StaticServer {
  url: string;
  /** Bytes of response bodies sent, and how many responses, since the start (or the last reset). */
  sent: { bytes: number; responses: number };
  /** Full responses (200, a body) sent per file, by its path under the root (`/`-separated). */
  bodies: Map<string, number>;
  close(): Promise<void>;
}

/** Options of {@link serveStatic}. */
export interface StaticServerOptions {
  /** Send `Cache-Control: no-cache` and an ETag (true, the default), or neither (false). */
  validators?: boolean;
  /** The port (default: a free one). */
  port?: number;
}

/** Serves `root` on 127.0.0.1 (a free port unless `options.port`). */
export async function serveStatic(
  root: string,
  options: StaticServerOptions = {},
): Promise<StaticServer> {
  const validators = options.validators ?? true;
  const bodies = new Map<string, number>();
  const base = resolve(root);
  const cache = new Map<string, Encoded & { etag: string }>();
  const sent = { bytes: 0, responses: 0 };
  const fileOf = (pathname: string): string => {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return join(base, 'index.html');
    }
    const path = normalize(join(base, decoded));
    if (path.startsWith(base + sep) && existsSync(path) && statSync(path).isFile()) return path;
    return join(base, 'index.html');
  };
  const server = createServer((req, res) => {
    const path = fileOf(new URL(req.url ?? '/', 'http://x').pathname);
    let entry = cache.get(path);
    if (!entry) {
      const encoded = encode(path);
      entry = {
        ...encoded,
        etag: `"${createHash('sha1').update(encoded.raw).digest('hex').slice(0, 16)}"`,
      };
      cache.set(path, entry);
    }
    res.setHeader('Content-Type', TYPES[extname(path)] ?? 'application/octet-stream');
    if (validators) {
      res.setHeader('Cache-Control', 'no-cache');
      res.setHeader('ETag', entry.etag);
    }
    res.setHeader('Vary', 'Accept-Encoding');
    sent.responses++;
    if (validators && req.headers['if-none-match'] === entry.etag) {
      res.statusCode = 304;
      res.end();
      return;
    }
    const accepts = String(req.headers['accept-encoding'] ?? '');
    let body = entry.raw;
    if (compressible(path) && /\bbr\b/.test(accepts)) {
      res.setHeader('Content-Encoding', 'br');
      body = entry.br;
    } else if (compressible(path) && /\bgzip\b/.test(accepts)) {
      res.setHeader('Content-Encoding', 'gzip');
      body = entry.gzip;
    }
    res.setHeader('Content-Length', body.length);
    sent.bytes += body.length;
    const rel = path
      .slice(base.length + 1)
      .split(sep)
      .join('/');
    bodies.set(rel, (bodies.get(rel) ?? 0) + 1);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    bodies,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
