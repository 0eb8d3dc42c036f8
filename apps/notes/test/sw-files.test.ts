import { describe, expect, it } from 'vitest';

import { splitFiles } from '../sw-files.ts';

describe('splitFiles', () => {
  it('precaches the default path and leaves ONNX Runtime and transformers.js to be cached on demand', () => {
    const { precache, onDemand } = splitFiles([
      'index.html',
      'assets/index-abc123.js',
      'assets/worker-Dnieq-NJ.js',
      'assets/tokenizers-DFUozZHT.js',
      'assets/sqlite3-k2cTanUO.wasm',
      'assets/transformers.web-iOafcpqC.js',
      'assets/ort-wasm-simd-threaded.asyncify-AbCd1234.wasm',
      'models/anamnesis/static-multi-64d/onnx/model_quantized.onnx',
      'ort/ort-wasm-simd-threaded.mjs',
      'ort/ort-wasm-simd-threaded.wasm',
      'ort/ort-wasm-simd-threaded.asyncify.wasm',
      'THIRD-PARTY-NOTICES.txt',
      'sw.js',
    ]);
    expect(precache).toEqual([
      'index.html',
      'assets/index-abc123.js',
      'assets/worker-Dnieq-NJ.js',
      'assets/tokenizers-DFUozZHT.js',
      'assets/sqlite3-k2cTanUO.wasm',
      'models/anamnesis/static-multi-64d/onnx/model_quantized.onnx',
      'THIRD-PARTY-NOTICES.txt',
    ]);
    expect(onDemand).toEqual([
      'assets/transformers.web-iOafcpqC.js',
      'ort/ort-wasm-simd-threaded.mjs',
      'ort/ort-wasm-simd-threaded.wasm',
      'ort/ort-wasm-simd-threaded.asyncify.wasm',
    ]);
  });
});

describe('splitFiles with the files the build names (SQLite3 Multiple Ciphers)', () => {
  it('leaves them to be cached on demand, and only them of their kind', () => {
    const cipher = new Set(['assets/sqlite3-B7imZ2XV.wasm', 'assets/sqlite-wasm-B1aDZguq.js']);
    const { precache, onDemand } = splitFiles(
      [
        'index.html',
        'assets/sqlite3-k2cTanUO.wasm',
        'assets/sqlite3-B7imZ2XV.wasm',
        'assets/sqlite-wasm-B1aDZguq.js',
        'ort/ort-wasm-simd-threaded.wasm',
      ],
      cipher,
    );
    expect(precache).toEqual(['index.html', 'assets/sqlite3-k2cTanUO.wasm']);
    expect(onDemand).toEqual([
      'assets/sqlite3-B7imZ2XV.wasm',
      'assets/sqlite-wasm-B1aDZguq.js',
      'ort/ort-wasm-simd-threaded.wasm',
    ]);
  });
});
