/**
 * WebGPU asked for where there is none: Chromium started without `--enable-unsafe-webgpu`, where
 * headless on Linux `navigator.gpu` exists and `requestAdapter()` gives null (as on a machine whose
 * GPU Chromium does not use). The client opens on wasm in the same worker and says so
 * (`info.fellBackFrom`, `selection.reason === 'no-webgpu'`); the notes app, with WebGPU chosen under
 * "Runs on", starts, saves and finds notes, and tells the person that search runs on wasm.
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { expect, test as clientTest } from '../fixtures.ts';
import { ok, openClientPage } from './client.ts';
import { consoleErrors, NOTES_URL, test as notesTest } from './notes-fixtures.ts';

/** The suite's Chromium without the flag that gives it a (SwiftShader) WebGPU adapter. */
const NO_WEBGPU = {
  executablePath: CHROMIUM_PATH,
  args: CHROMIUM_ARGS.filter((a) => a !== '--enable-unsafe-webgpu'),
};

/** In the page: whether WebGPU is exposed and has no adapter (what this suite is about). */
async function exposedWithoutAdapter(): Promise<boolean> {
  const gpu = (navigator as { gpu?: { requestAdapter(): Promise<unknown> } }).gpu;
  return gpu !== undefined && (await gpu.requestAdapter()) === null;
}

const NOTES = [
  { id: 'cat', text: 'I adopted a kitten named Luna and she sleeps on the sofa', tags: ['pets'] },
  { id: 'tax', text: 'the quarterly tax filing deadline is in april, send receipts' },
  { id: 'trip', text: 'we hiked along the mountain trail and camped by a lake' },
];

// For the whole file (a browser option: one browser for its tests).
clientTest.use({ launchOptions: NO_WEBGPU });

clientTest.describe('the client', () => {
  clientTest(
    "openMemory and connectMemory with device 'webgpu' and no adapter open on wasm in the same worker, remember and recall, and say they fell back",
    async ({ page }) => {
      clientTest.setTimeout(120_000);
      const c = await openClientPage(page);
      expect(await page.evaluate(exposedWithoutAdapter)).toBe(true);

      const info = ok(await c.open('o', { name: 'no-adapter', device: 'webgpu' }));
      expect(info).toMatchObject({
        role: 'owner',
        device: 'wasm',
        runtime: 'onnx', // ONNX Runtime's wasm, from the asyncify build WebGPU would have used
        selection: { requested: 'webgpu', device: 'wasm', reason: 'no-webgpu' },
        fellBackFrom: { code: 'UNSUPPORTED' },
      });
      expect(info.fellBackFrom!.message).toMatch(/no adapter/);
      expect(ok(await c.call('o', 'rememberMany', [NOTES]))).toEqual(['cat', 'tax', 'trip']);
      // by meaning: no word in common
      const hits = ok(await c.call('o', 'recall', ['my cat'])) as { id: string }[];
      expect(hits[0]!.id).toBe('cat');
      ok(await c.close('o'));

      // connectMemory: the open waits for a model asked to run on WebGPU, so its info says where
      // it runs; the store written above is read again.
      await c.connect('e', { name: 'no-adapter', device: 'webgpu' });
      const again = ok(await c.call('e', 'recall', ['my cat'])) as {
        id: string;
        partial?: true;
      }[];
      expect(again[0]).toMatchObject({ id: 'cat' });
      expect(again[0]!.partial).toBeUndefined();
      expect(ok(await c.info('e'))).toMatchObject({
        device: 'wasm',
        selection: { requested: 'webgpu', reason: 'no-webgpu' },
        fellBackFrom: { code: 'UNSUPPORTED' },
      });
      ok(await c.call('e', 'remember', [{ text: 'the boiler service is booked for friday' }]));
      expect(ok(await c.call('e', 'stats', []))).toMatchObject({ memories: 4 });
      ok(await c.close('e'));
    },
  );
});

notesTest.describe('the notes app', () => {
  notesTest.use({ baseURL: NOTES_URL, serviceWorkers: 'allow' });

  notesTest(
    'with WebGPU chosen under "Runs on" and no adapter: it starts, saves and finds notes, and says search runs on wasm',
    async ({ page }) => {
      notesTest.setTimeout(240_000);
      const errors = consoleErrors(page);
      const notice = page.getByRole('status', { name: 'WebGPU notice' });
      const firstResult = page.locator('#results .result-title').first();

      await page.goto('/');
      expect(await page.evaluate(exposedWithoutAdapter)).toBe(true);
      // The person waits for the app to show where the model runs, then picks WebGPU (the app
      // downloads ONNX Runtime's WebGPU build, then reopens the store on it).
      await expect(page.getByRole('definition').filter({ hasText: 'JavaScript' })).toBeVisible({
        timeout: 60_000,
      });
      await expect(notice).toBeHidden();
      await page.getByLabel('Runs on').selectOption('webgpu');
      await expect(notice).toBeVisible({ timeout: 120_000 });
      await expect(notice).toContainText('WebGPU is not available in this browser');
      await expect(notice).toContainText('wasm');
      await expect(
        page.getByRole('definition').filter({ hasText: 'WebGPU is not available in this browser' }),
      ).toBeVisible();
      await expect(page.getByRole('definition').filter({ hasText: 'ONNX Runtime' })).toBeVisible();

      await page.getByRole('button', { name: 'New note' }).click();
      await page.getByLabel('Title').fill('Luna');
      await page
        .getByLabel('Body')
        .fill('Adopted a kitten from the shelter; she naps on the sofa.');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.locator('.editor .status')).toHaveText('saved');
      await page.getByLabel('Search').fill('my cat'); // by meaning: no word in common
      await expect(firstResult).toHaveText('Luna', { timeout: 30_000 });

      // The next visit starts on the choice it kept: on wasm again, and says so.
      await page.reload();
      await expect(notice).toBeVisible({ timeout: 120_000 });
      await expect(notice).toContainText('WebGPU is not available in this browser');
      await expect(page.getByLabel('Runs on')).toHaveValue('webgpu');
      await expect(page.locator('#notes .note-title').filter({ hasText: 'Luna' })).toBeVisible();
      await page.getByLabel('Search').fill('kitten shelter');
      await expect(firstResult).toHaveText('Luna', { timeout: 30_000 });
      expect(errors).toEqual([]);
    },
  );
});
