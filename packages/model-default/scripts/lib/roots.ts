/**
 * A model root on disk: `<model id>/…` files and a `manifest.json` beside them that lists each
 * file (relative to the root, sorted) with its size and sha256, then whatever the build records
 * (sources, licences, settings). Written and compared the same way by every build script.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The manifest's file entries: path relative to the root → size and sha256. */
export type ManifestFiles = Record<string, { bytes: number; sha256: string }>;

/** A model root's manifest: its model id, its files, then what the build records. */
export interface RootManifest {
  model_id: string;
  files: ManifestFiles;
  [key: string]: unknown;
}

/** Hex sha256 of `bytes`. */
export const sha256 = (bytes: Uint8Array): string =>
  createHash('sha256').update(bytes).digest('hex');

/** Reads `root/manifest.json`. */
export function readManifest(root: string): RootManifest {
  return JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as RootManifest;
}

/**
 * Writes `files` (paths relative to the root) under `root`, replacing the model's folder, and
 * `manifest.json` with `model_id`, the files (sorted, with size and sha256), then `record`'s
 * fields in their order. Returns the manifest.
 */
export function writeRoot(
  root: string,
  modelId: string,
  files: ReadonlyMap<string, Uint8Array>,
  record: Record<string, unknown>,
): RootManifest {
  rmSync(join(root, modelId), { recursive: true, force: true });
  const manifest: RootManifest = { model_id: modelId, files: {} };
  for (const name of [...files.keys()].sort()) {
    const bytes = files.get(name)!;
    const path = join(root, name);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
    manifest.files[name] = { bytes: bytes.length, sha256: sha256(bytes) };
  }
  Object.assign(manifest, record);
  writeFileSync(join(root, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

/** Total bytes of a manifest's files. */
export function rootBytes(manifest: RootManifest): number {
  return Object.values(manifest.files).reduce((s, f) => s + f.bytes, 0);
}

/**
 * Compares a committed root with a rebuilt one: `manifest.json` byte for byte, and every file the
 * two manifests name on disk against both. Prints a line per file; true when all are identical.
 */
export function sameRoots(committed: string, rebuilt: string, label: string): boolean {
  const committedPath = join(committed, 'manifest.json');
  if (!existsSync(committedPath)) {
    console.error(`no ${committedPath}: build it first`);
    return false;
  }
  let ok = readFileSync(join(rebuilt, 'manifest.json')).equals(readFileSync(committedPath));
  if (!ok) console.error('manifest.json differs from the rebuilt one');
  const want = readManifest(committed).files;
  const got = readManifest(rebuilt).files;
  for (const name of [...new Set([...Object.keys(want), ...Object.keys(got)])].sort()) {
    const onDisk = existsSync(join(committed, name))
      ? sha256(readFileSync(join(committed, name)))
      : undefined;
    const same =
      want[name] !== undefined &&
      want[name].sha256 === got[name]?.sha256 &&
      onDisk === want[name].sha256;
    console.log(`${same ? 'same' : 'DIFFERS'}  ${name}  ${got[name]?.sha256 ?? '(missing)'}`);
    ok &&= same;
  }
  console.log(ok ? `${label}: the rebuild is byte-identical` : `${label}: MISMATCH`);
  return ok;
}
