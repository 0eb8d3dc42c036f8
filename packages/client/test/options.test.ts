import { ENGLISH_MODEL_ID, MODEL_ID } from '@anamnesis/model-default';
import { describe, expect, it } from 'vitest';

import type { ClientEnvironment } from '../src/environment.ts';
import { resolveOptions } from '../src/options.ts';

const env: ClientEnvironment = {
  createWorker: () => {
    throw new Error('not started here');
  },
  locks: undefined,
  createChannel: undefined,
  baseUrl: 'https://app.example/',
  persist: undefined,
};

/** What the worker opens with for `options`: its embedder's options. */
const embedder = (model?: string) =>
  resolveOptions(model === undefined ? {} : { model }, env).open.embedder;

describe("openMemory's model", () => {
  it('is the default model from /models/ by default, on wasm (plain JavaScript)', () => {
    expect(embedder()).toMatchObject({
      model: MODEL_ID,
      localModelPath: 'https://app.example/models/',
      device: 'wasm',
    });
  });

  it('may be the English model, from the same path (the app serves its root there), on wasm too', () => {
    expect(embedder(ENGLISH_MODEL_ID)).toMatchObject({
      model: ENGLISH_MODEL_ID,
      localModelPath: 'https://app.example/models/',
      device: 'wasm',
    });
  });

  it("is loaded on 'auto' for any other model, and not at all for 'tfidf'", () => {
    expect(embedder('org/other-model')).toMatchObject({ model: 'org/other-model', device: 'auto' });
    expect(embedder('tfidf')).toBe('tfidf');
  });
});
