/** The no-other-origin fixture itself: it sees requests of the page and of its workers. */
import { test as base } from '@playwright/test';

import { expect, isForeign, test, watchForeignRequests } from '../fixtures.ts';

test('isForeign tells network URLs on other origins apart', () => {
  const origin = 'http://127.0.0.1:4391';
  expect(isForeign('http://127.0.0.1:4391/models/x.json', origin)).toBe(false);
  expect(isForeign('blob:http://127.0.0.1:4391/1234', origin)).toBe(false);
  expect(isForeign('data:text/plain,hi', origin)).toBe(false);
  expect(isForeign('http://localhost:4391/', origin)).toBe(true);
  expect(isForeign('https://cdn.jsdelivr.net/npm/onnxruntime-web/dist/x.wasm', origin)).toBe(true);
});

base(
  'a request to another origin from the page or a worker is recorded and blocked',
  async ({ page, context, baseURL }) => {
    const foreign = await watchForeignRequests(context, new URL(baseURL!).origin);
    await page.goto('/');
    const outcome = await page.evaluate(async () => {
      const fromPage = await fetch('https://cdn.example.invalid/page.json').then(
        () => 'fetched',
        () => 'blocked',
      );
      const source = `fetch('https://cdn.example.invalid/worker.wasm').then(() => postMessage('fetched'), () => postMessage('blocked'));`;
      const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      const worker = new Worker(url, { type: 'module' });
      const fromWorker = await new Promise(
        (resolve) => (worker.onmessage = (e) => resolve(e.data)),
      );
      worker.terminate();
      return { fromPage, fromWorker };
    });
    expect(outcome).toEqual({ fromPage: 'blocked', fromWorker: 'blocked' });
    expect(foreign).toEqual([
      'https://cdn.example.invalid/page.json',
      'https://cdn.example.invalid/worker.wasm',
    ]);
  },
);
