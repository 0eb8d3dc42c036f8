/**
 * The embedder layer in a real browser: the default model in a dedicated module worker on wasm
 * and on WebGPU (SwiftShader), the same nearest neighbours as in Node, device choice, fallbacks
 * and typed load errors. Nothing is fetched from another origin (see `fixtures.ts`).
 */
import { createTransformersEmbedder } from '@anamnesis/engine';
import { DIMENSIONS, MODEL_ID, modelRootPath } from '@anamnesis/model-default';

import { expect, test } from '../fixtures.ts';
import { openHarness } from './harness.ts';
import { dot, maxAbsDiff, PROBES, topNeighbours } from './probes.ts';

let nodeVectors: Float32Array[];
let nodeNeighbours: number[][];

test.beforeAll(async () => {
  const embedder = await createTransformersEmbedder({
    model: MODEL_ID,
    localModelPath: await modelRootPath(),
    device: 'cpu',
  });
  nodeVectors = await embedder.embed(PROBES);
  nodeNeighbours = topNeighbours(nodeVectors);
  await embedder.dispose?.();
});

for (const device of ['wasm', 'webgpu'] as const) {
  test(`${device}: the default model loads in a worker and gives Node's top-10 neighbours`, async ({
    page,
    baseURL,
  }) => {
    const h = await openHarness(page);
    // wasm gets the model root as an absolute same-origin URL, webgpu as a path: both must work.
    const modelRoot = device === 'wasm' ? `${baseURL}/models/` : '/models/';
    const loaded = await h.load({ device, modelRoot });
    expect(loaded.device).toBe(device);
    expect(loaded.dims).toBe(DIMENSIONS);
    expect(loaded.selection).toMatchObject({ requested: device, device, reason: 'requested' });

    const vectors = await h.embed(PROBES);
    expect(vectors).toHaveLength(PROBES.length);
    for (const v of vectors) expect(Math.abs(dot(v, v) - 1)).toBeLessThan(1e-5);
    expect(topNeighbours(vectors)).toEqual(nodeNeighbours);
    expect(maxAbsDiff(vectors, nodeVectors)).toBeLessThan(1e-4);
    test.info().annotations.push({
      type: 'load',
      description: `${device}: ${loaded.totalMs.toFixed(0)} ms from new Worker() (createTransformersEmbedder ${loaded.loadMs.toFixed(0)} ms)`,
    });
  });
}

test('the plain (wasm-only) ONNX Runtime build: same neighbours, auto stays on wasm, webgpu is refused', async ({
  page,
}) => {
  const h = await openHarness(page);
  const loaded = await h.load({ device: 'auto', runtime: 'plain' });
  expect(loaded.device).toBe('wasm');
  expect(loaded.selection).toMatchObject({ requested: 'auto', reason: 'no-webgpu' });
  expect(topNeighbours(await h.embed(PROBES))).toEqual(nodeNeighbours);
  const error = await h.loadError({ device: 'webgpu', runtime: 'plain' });
  expect(error).toMatchObject({ code: 'UNSUPPORTED', details: { freshWorker: false } });
});

test('the worker sees a WebGPU adapter (SwiftShader)', async ({ page }) => {
  const h = await openHarness(page);
  expect(await h.hasAdapter()).toBe(true);
  const loaded = await h.load({ device: 'wasm' });
  expect(loaded.workerHasAdapter).toBe(true);
});

test('auto picks a device by a warm-up and says which', async ({ page }) => {
  const h = await openHarness(page);
  const loaded = await h.load({ device: 'auto' });
  const selection = loaded.selection!;
  expect(['wasm', 'webgpu']).toContain(loaded.device);
  expect(selection.device).toBe(loaded.device);
  expect(selection.requested).toBe('auto');
  expect(['webgpu-faster', 'wasm-faster']).toContain(selection.reason);
  expect(selection.warmupMs!.wasm).toBeGreaterThan(0);
  expect(selection.warmupMs!.webgpu).toBeGreaterThan(0);
  expect(selection.reason === 'webgpu-faster').toBe(
    selection.warmupMs!.webgpu < selection.warmupMs!.wasm,
  );
  expect(topNeighbours(await h.embed(PROBES))).toEqual(nodeNeighbours);
  test.info().annotations.push({
    type: 'auto',
    description: `chose ${loaded.device} (${selection.reason}; warm-up ms ${JSON.stringify(selection.warmupMs)})`,
  });
});

test('auto keeps wasm in the same worker when the WebGPU session cannot be created', async ({
  page,
}) => {
  const h = await openHarness(page);
  const loaded = await h.load({ device: 'auto', breakWebGpu: true });
  expect(loaded.device).toBe('wasm');
  expect(loaded.selection).toMatchObject({ requested: 'auto', reason: 'webgpu-failed' });
  expect(loaded.selection!.webgpuError).toBeTruthy();
  expect(topNeighbours(await h.embed(PROBES))).toEqual(nodeNeighbours);
});

test('explicit webgpu that fails gives UNSUPPORTED with a fresh-worker hint; the host falls back to wasm', async ({
  page,
}) => {
  const h = await openHarness(page);
  const error = await h.loadError({ device: 'webgpu', breakWebGpu: true });
  expect(error).toMatchObject({
    code: 'UNSUPPORTED',
    details: { device: 'webgpu', fallback: 'wasm', freshWorker: true },
  });
  const loaded = await h.loadWithFallback({ device: 'webgpu', breakWebGpu: true });
  expect(loaded.fellBackFrom?.code).toBe('UNSUPPORTED');
  expect(loaded.device).toBe('wasm');
  expect(topNeighbours(await h.embed(PROBES))).toEqual(nodeNeighbours);
});

const BROKEN = [
  { mode: 'missing', file: 'onnx/model_quantized.onnx', device: 'wasm' },
  { mode: 'missing', file: 'tokenizer.json', device: 'wasm' },
  { mode: 'missing', file: 'tokenizer_config.json', device: 'wasm' },
  { mode: 'missing', file: 'config.json', device: 'auto' },
  { mode: 'corrupt', file: 'config.json', device: 'wasm' },
  { mode: 'corrupt', file: 'onnx/model_quantized.onnx', device: 'wasm' },
  { mode: 'corrupt', file: 'onnx/model_quantized.onnx', device: 'webgpu' },
  { mode: 'corrupt', file: 'tokenizer.json', device: 'wasm' },
] as const;

for (const { mode, file, device } of BROKEN) {
  test(`${mode} ${file} (${device}) gives MODEL_LOAD_FAILED naming the file`, async ({ page }) => {
    const h = await openHarness(page);
    const error = await h.loadError({
      device,
      modelRoot: `/broken/${mode}/${file.replaceAll('/', '~')}/`,
    });
    expect(error?.code).toBe('MODEL_LOAD_FAILED');
    expect(error?.message).toContain(file);
    expect(error?.details).toMatchObject({
      model: MODEL_ID,
      file,
      reason: mode === 'missing' ? 'missing' : 'corrupt',
    });
  });
}

test('a local model root on another origin is refused before anything is fetched', async ({
  page,
}) => {
  const h = await openHarness(page);
  const error = await h.loadError({ device: 'wasm', modelRoot: 'https://models.example.com/' });
  expect(error?.code).toBe('INVALID_INPUT');
  expect(error?.message).toContain('remoteHost');
});

test('without wasmPaths an ONNX load is INVALID_INPUT, and ONNX Runtime is never fetched from a CDN', async ({
  page,
}) => {
  const h = await openHarness(page);
  for (const device of ['wasm', 'auto'] as const) {
    const error = await h.loadError({ device, runtime: 'none' });
    expect(error?.code).toBe('INVALID_INPUT');
    expect(error?.message).toContain('wasmPaths');
  }
  // (fixtures.ts fails the test on any request to another origin, such as cdn.jsdelivr.net)
});

test('the app serves a missing model or runtime file as 404, not as index.html', async ({
  request,
}) => {
  for (const path of [
    `/models/${MODEL_ID}/onnx/model.onnx`,
    '/models/anamnesis/glove-100d-sif/config.json', // the English model: another root, not served
    '/models/anamnesis/nope/config.json',
    '/ort/ort-wasm-simd-threaded.jsep.wasm',
    '/no-such-file.json',
  ]) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(404);
  }
  const ok = await request.get(`/models/${MODEL_ID}/config.json`);
  expect(ok.status()).toBe(200);
  expect(await ok.json()).toMatchObject({ model_type: 'bert' });
});
