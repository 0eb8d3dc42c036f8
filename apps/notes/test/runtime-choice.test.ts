import { describe, expect, it } from 'vitest';

import {
  downloadFiles,
  loadRuntimeChoice,
  runtimeFiles,
  runtimeOptions,
  saveRuntimeChoice,
  type DownloadProgress,
} from '../src/runtime-choice.ts';

/** An in-memory Storage. */
function storage(): Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> {
  const items = new Map<string, string>();
  return {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => items.set(k, v),
    removeItem: (k) => items.delete(k),
  };
}

describe('the runtime choice', () => {
  it('is JavaScript unless ONNX Runtime or WebGPU was saved; an unknown value is ignored', () => {
    const s = storage();
    expect(loadRuntimeChoice(s)).toBe('js');
    expect(loadRuntimeChoice(undefined)).toBe('js');
    saveRuntimeChoice(s, 'webgpu');
    expect(loadRuntimeChoice(s)).toBe('webgpu');
    saveRuntimeChoice(s, 'js');
    expect(loadRuntimeChoice(s)).toBe('js');
    s.setItem('anamnesis-notes:runtime', 'cuda');
    expect(loadRuntimeChoice(s)).toBe('js');
  });

  it('opens the store and fetches the runtime build each choice needs', () => {
    expect(runtimeOptions('js')).toEqual({});
    expect(runtimeOptions('onnx')).toEqual({ device: 'wasm', runtime: 'onnx' });
    expect(runtimeOptions('webgpu')).toEqual({ device: 'webgpu' });
    expect(runtimeFiles('js')).toEqual([]);
    expect(runtimeFiles('onnx')).toEqual([
      '/ort/ort-wasm-simd-threaded.mjs',
      '/ort/ort-wasm-simd-threaded.wasm',
    ]);
    expect(runtimeFiles('webgpu', '/app/ort/')).toEqual([
      '/app/ort/ort-wasm-simd-threaded.asyncify.mjs',
      '/app/ort/ort-wasm-simd-threaded.asyncify.wasm',
    ]);
  });
});

describe('downloadFiles', () => {
  const body = (n: number) =>
    new Response(new Uint8Array(n), { headers: { 'content-length': String(n) } });

  it('reads every file to the end and reports the bytes read against the total', async () => {
    const seen: DownloadProgress[] = [];
    const asked: string[] = [];
    await downloadFiles(
      ['/a', '/b'],
      (p) => seen.push(p),
      (url) => {
        asked.push(url as string);
        return Promise.resolve(body(url === '/a' ? 1000 : 3000));
      },
    );
    expect(asked).toEqual(['/a', '/b']);
    expect(seen[0]).toEqual({ loaded: 0, total: 4000 });
    expect(seen.at(-1)).toEqual({ loaded: 4000, total: 4000 });
    for (let i = 1; i < seen.length; i++)
      expect(seen[i]!.loaded).toBeGreaterThanOrEqual(seen[i - 1]!.loaded);
  });

  it('rejects when a file is missing (nothing is switched)', async () => {
    await expect(
      downloadFiles(
        ['/a', '/b'],
        () => undefined,
        (url) => Promise.resolve(url === '/b' ? new Response('no', { status: 404 }) : body(10)),
      ),
    ).rejects.toThrow('/b: HTTP 404');
  });
});
