import type { Page } from '@playwright/test';

/**
 * Overwrites `length` bytes at `offset` of a closed store's database file with `fill`, from a page
 * of the store's origin: in its opfs-sahpool file (the one whose header names `/<name>.sqlite3`;
 * the database follows a 4 KiB header).
 */
export function damageStore(
  page: Page,
  name: string,
  offset: number,
  length: number,
  fill: number,
): Promise<void> {
  return page.evaluate(
    async ([name, offset, length, fill]) => {
      const root = await navigator.storage.getDirectory();
      const pool = await (await root.getDirectoryHandle('.anamnesis')).getDirectoryHandle(name);
      const opaque = await pool.getDirectoryHandle('.opaque');
      const want = `/${name}.sqlite3`;
      for await (const [, handle] of (
        opaque as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }
      ).entries()) {
        const header = new Uint8Array(await (await handle.getFile()).slice(0, 512).arrayBuffer());
        if (new TextDecoder().decode(header.subarray(0, header.indexOf(0))) !== want) continue;
        const writable = await handle.createWritable({ keepExistingData: true });
        await writable.write({
          type: 'write',
          position: 4096 + offset,
          data: new Uint8Array(length).fill(fill),
        });
        await writable.close();
        return;
      }
      throw new Error(`no pool file holds ${want}`);
    },
    [name, offset, length, fill] as const,
  );
}
