/** Removes every entry of the origin's OPFS root; returns the names removed. */
export async function clearOpfs(): Promise<string[]> {
  const root = await navigator.storage.getDirectory();
  const names: string[] = [];
  for await (const name of (root as unknown as { keys(): AsyncIterable<string> }).keys()) {
    names.push(name);
  }
  for (const name of names) await root.removeEntry(name, { recursive: true });
  return names;
}
