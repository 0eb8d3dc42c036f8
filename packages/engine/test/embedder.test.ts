import { cp, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MODEL_ID, modelRootPath } from '@anamnesis/model-default';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import { createTransformersEmbedder } from '../src/embedding/transformers-embedder.ts';
import { rejectsWith } from './helpers.ts';

/** A copy of the default model root with one file removed or replaced. */
let root: string;

async function brokenRoot(name: string, file: string, content?: string): Promise<string> {
  const dir = join(root, name);
  await cp(await modelRootPath(), dir, { recursive: true });
  const path = join(dir, MODEL_ID, file);
  if (content === undefined) await unlink(path);
  else await writeFile(path, content);
  return dir;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'anamnesis-embedder-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('createTransformersEmbedder (Node)', () => {
  it('loads the default model on cpu and says why', async () => {
    const embedder = await createTransformersEmbedder({
      model: MODEL_ID,
      localModelPath: await modelRootPath(),
      threads: 1,
    });
    expect(embedder.device).toBe('cpu');
    expect(embedder.selection).toEqual({ requested: 'auto', device: 'cpu', reason: 'node' });
    const [v] = await embedder.embed(['a short note about dinner']);
    expect(v).toHaveLength(embedder.dims);
    await embedder.dispose?.();
  });

  it('rejects bad options with INVALID_INPUT', async () => {
    await rejectsWith(createTransformersEmbedder({ model: '' }), 'INVALID_INPUT');
    await rejectsWith(createTransformersEmbedder({ model: MODEL_ID, threads: 0 }), 'INVALID_INPUT');
    await rejectsWith(
      createTransformersEmbedder({ model: MODEL_ID, device: 'tpu' as 'cpu' }),
      'INVALID_INPUT',
    );
  });

  it.each([
    ['config.json', undefined, 'missing'],
    ['tokenizer.json', undefined, 'missing'],
    ['onnx/model_quantized.onnx', undefined, 'missing'],
    ['config.json', '{"model_type": ', 'corrupt'],
    ['tokenizer.json', 'not json', 'corrupt'],
    ['onnx/model_quantized.onnx', 'not a protobuf at all', 'corrupt'],
  ] as const)('%s %s gives MODEL_LOAD_FAILED naming the file', async (file, content, reason) => {
    const dir = await brokenRoot(`${reason}-${file.replaceAll('/', '_')}`, file, content);
    const error = await rejectsWith(
      createTransformersEmbedder({ model: MODEL_ID, localModelPath: dir }),
      'MODEL_LOAD_FAILED',
    );
    expect(error.message).toContain(file);
    expect(error.details).toMatchObject({ model: MODEL_ID, file, reason });
  });

  it("an explicit 'webgpu' without an adapter loads in the same realm and says why (no-webgpu)", async () => {
    // a navigator.gpu whose requestAdapter() gives null, as a browser without WebGPU answers
    const requestAdapter = vi.fn(() => Promise.resolve(null));
    vi.stubGlobal('navigator', { gpu: { requestAdapter } });
    try {
      const embedder = await createTransformersEmbedder({
        model: MODEL_ID,
        localModelPath: await modelRootPath(),
        device: 'webgpu',
        threads: 1,
      });
      expect(requestAdapter).toHaveBeenCalledTimes(1);
      // Node has no wasm device: cpu there (a browser's worker loads on wasm, see e2e/tests)
      expect(embedder.device).toBe('cpu');
      expect(embedder.selection).toEqual({
        requested: 'webgpu',
        device: 'cpu',
        reason: 'no-webgpu',
      });
      const [v] = await embedder.embed(['a short note about dinner']);
      expect(v).toHaveLength(embedder.dims);
      await embedder.dispose?.();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("an explicit 'webgpu' with a wasm-only wasmPaths is UNSUPPORTED (a configuration mistake), adapter or not", async () => {
    vi.stubGlobal('navigator', { gpu: { requestAdapter: () => Promise.resolve(null) } });
    try {
      const error = await rejectsWith(
        createTransformersEmbedder({
          model: MODEL_ID,
          localModelPath: await modelRootPath(),
          device: 'webgpu',
          wasmPaths: {
            mjs: '/ort/ort-wasm-simd-threaded.mjs',
            wasm: '/ort/ort-wasm-simd-threaded.wasm',
          },
        }),
        'UNSUPPORTED',
      );
      expect(error.message).toContain('wasm-only');
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('without tokenizer_config.json gives MODEL_LOAD_FAILED naming it', async () => {
    const dir = await brokenRoot('no-tokenizer-config', 'tokenizer_config.json');
    const error = await rejectsWith(
      createTransformersEmbedder({ model: MODEL_ID, localModelPath: dir }),
      'MODEL_LOAD_FAILED',
    );
    expect(error.details).toMatchObject({ file: 'tokenizer_config.json', reason: 'missing' });
  });
});

describe('createTransformersEmbedder outside Node: no ONNX Runtime code from a CDN', () => {
  /**
   * Starts a load as a browser worker would: `process` is absent while the call runs its
   * synchronous part (the option checks), and is put back before anything else runs.
   */
  function inBrowserRealm(run: () => Promise<unknown>): Promise<unknown> {
    vi.stubGlobal('process', undefined);
    try {
      return run();
    } finally {
      vi.unstubAllGlobals();
    }
  }

  it('refuses an ONNX load without wasmPaths (transformers.js would fetch ONNX Runtime from jsDelivr)', async () => {
    for (const device of ['wasm', 'webgpu', 'auto'] as const) {
      const error = await rejectsWith(
        inBrowserRealm(() =>
          createTransformersEmbedder({ model: MODEL_ID, localModelPath: '/models/', device }),
        ),
        'INVALID_INPUT',
      );
      expect(error.message).toContain('wasmPaths');
      expect(error.message).toContain('@anamnesis/client/vite');
      expect(error.details).toMatchObject({ option: 'wasmPaths' });
    }
    expect(typeof process.versions.node).toBe('string'); // Node is back
  });
});
