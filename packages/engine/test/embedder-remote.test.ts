import { createReadStream, existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { join, normalize, sep } from 'node:path';
import { MODEL_ID, modelRootPath } from '@anamnesis/model-default';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTransformersEmbedder } from '../src/embedding/transformers-embedder.ts';

/**
 * A hub-like model host on loopback: `/<model id>/resolve/<revision>/<file>` serves the default
 * model's files, as a self-hosted model server would; everything else is a 404. The test proves the
 * remote path end to end without any outside network.
 */
let server: Server;
let host: string;
const requests: string[] = [];

beforeAll(async () => {
  const root = await modelRootPath();
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/(.+)\/resolve\/[^/]+\/(.+)$/.exec(
      decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname),
    );
    const path = m ? normalize(join(root, m[1]!, m[2]!)) : '';
    if (
      !m ||
      !path.startsWith(root.endsWith(sep) ? root : root + sep) ||
      !existsSync(path) ||
      !statSync(path).isFile()
    ) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Length': statSync(path).size });
    createReadStream(path).pipe(res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  host = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('createTransformersEmbedder from a remote host', () => {
  it('downloads a model by id from a hub-like host, caches it, and embeds like the local copy', async () => {
    const cacheDir = await mkdtemp(join(tmpdir(), 'anamnesis-cache-'));
    const remote = await createTransformersEmbedder({
      model: MODEL_ID,
      remoteHost: host,
      cacheDir,
    });
    const local = await createTransformersEmbedder({
      model: MODEL_ID,
      localModelPath: await modelRootPath(),
    });
    const [a] = await remote.embed(['a kitten asleep on the sofa']);
    const [b] = await local.embed(['a kitten asleep on the sofa']);
    expect(Array.from(a!)).toEqual(Array.from(b!));
    expect(
      requests.some(
        (r) => r.includes(`/${MODEL_ID}/resolve/`) && r.endsWith('model_quantized.onnx'),
      ),
    ).toBe(true);
    // A second load is served from the cache: no new request reaches the host.
    const seen = requests.length;
    await createTransformersEmbedder({ model: MODEL_ID, remoteHost: host, cacheDir });
    expect(requests.length).toBe(seen);
    await rm(cacheDir, { recursive: true, force: true });
  });
});
