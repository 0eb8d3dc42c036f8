import type { Page } from '@playwright/test';

/**
 * In a closed store's database file (its opfs-sahpool file: the one whose header names
 * `/<name>.sqlite3`; the database follows a 4 KiB header), from a page of the store's origin:
 * overwrites `write.length` bytes at `write.offset` with `write.fill`, or returns the first `read`
 * bytes of the database.
 */
function storeFile(
  page: Page,
  name: string,
  op: { read: number } | { write: { offset: number; length: number; fill: number } },
): Promise<number[]> {
  return page.evaluate(
    async ([name, op]) => {
      const root = await navigator.storage.getDirectory();
      const pool = await (await root.getDirectoryHandle('.anamnesis')).getDirectoryHandle(name);
      const opaque = await pool.getDirectoryHandle('.opaque');
      const want = `/${name}.sqlite3`;
      for await (const [, handle] of (
        opaque as unknown as { entries(): AsyncIterable<[string, FileSystemFileHandle]> }
      ).entries()) {
        const file = await handle.getFile();
        const header = new Uint8Array(await file.slice(0, 512).arrayBuffer());
        if (new TextDecoder().decode(header.subarray(0, header.indexOf(0))) !== want) continue;
        if ('read' in op)
          return [...new Uint8Array(await file.slice(4096, 4096 + op.read).arrayBuffer())];
        const writable = await handle.createWritable({ keepExistingData: true });
        await writable.write({
          type: 'write',
          position: 4096 + op.write.offset,
          data: new Uint8Array(op.write.length).fill(op.write.fill),
        });
        await writable.close();
        return [];
      }
      throw new Error(`no pool file holds ${want}`);
    },
    [name, op] as const,
  );
}

/** Overwrites `length` bytes at `offset` of a closed store's database file with `fill`. */
export async function damageStore(
  page: Page,
  name: string,
  offset: number,
  length: number,
  fill: number,
): Promise<void> {
  await storeFile(page, name, { write: { offset, length, fill } });
}

/** The page size of a closed store's database, from its SQLite header (bytes 16–17; 1: 65,536). */
export async function storePageSize(page: Page, name: string): Promise<number> {
  const head = await storeFile(page, name, { read: 100 });
  const size = (head[16]! << 8) | head[17]!;
  return size === 1 ? 65_536 : size;
}
