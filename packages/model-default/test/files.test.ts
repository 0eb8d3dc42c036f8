import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

import { describe, expect, it } from 'vitest';

import {
  DIMENSIONS,
  ENGLISH_DIMENSIONS,
  ENGLISH_MODEL_FILES,
  ENGLISH_MODEL_ID,
  englishModelRootPath,
  MANIFEST_FILE,
  MODEL_FILES,
  MODEL_ID,
  modelRootPath,
} from '../src/index.ts';

interface Manifest {
  model_id: string;
  files: Record<string, { bytes: number; sha256: string }>;
  build: Record<string, unknown>;
}

/** Every file under `root`, `/`-separated and relative to it (what an app serves of the root). */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

const ROOTS = [
  {
    name: 'the default model',
    root: await modelRootPath(),
    id: MODEL_ID,
    files: MODEL_FILES,
    dims: DIMENSIONS,
  },
  {
    name: 'the English model',
    root: await englishModelRootPath(),
    id: ENGLISH_MODEL_ID,
    files: ENGLISH_MODEL_FILES,
    dims: ENGLISH_DIMENSIONS,
  },
];

describe.each(ROOTS)('committed files of $name', ({ root, id, files, dims }) => {
  const manifest = JSON.parse(readFileSync(join(root, MANIFEST_FILE), 'utf8')) as Manifest;

  it('are exactly the files the manifest lists, for the exported model id, and nothing else in the root', () => {
    expect(manifest.model_id).toBe(id);
    expect(Object.keys(manifest.files).sort()).toEqual([...files].sort());
    // an app serves (and the notes app precaches) every file of the root: one model, no other
    expect(filesUnder(root)).toEqual([MANIFEST_FILE, ...files].sort());
  });

  it.each(files)('%s matches its manifest sha256 and size', (name) => {
    const bytes = readFileSync(join(root, name));
    expect(bytes.length).toBe(manifest.files[name]!.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(manifest.files[name]!.sha256);
  });

  it('stay under the 8 MB budget', () => {
    const total = Object.values(manifest.files).reduce((sum, f) => sum + f.bytes, 0);
    expect(total).toBeLessThanOrEqual(8_000_000);
  });

  it('declare a BERT-type config with the exported dimension and a dtype pinned for every device', () => {
    const config = JSON.parse(readFileSync(join(root, id, 'config.json'), 'utf8'));
    expect(config.model_type).toBe('bert');
    expect(config.hidden_size).toBe(dims);
    expect(config['transformers.js_config']).toEqual({ dtype: 'q8' });
    const tokenizerConfig = JSON.parse(
      readFileSync(join(root, id, 'tokenizer_config.json'), 'utf8'),
    );
    expect(tokenizerConfig.model_max_length).toBe(512);
    expect(tokenizerConfig.do_lower_case).toBe(true);
  });
});

describe("the default model's manifest", () => {
  const manifest = JSON.parse(
    readFileSync(join(ROOTS[0]!.root, MANIFEST_FILE), 'utf8'),
  ) as Manifest & Record<string, Record<string, unknown>>;

  it('records the sources, their licences, what training left out and the projection', () => {
    expect(Object.keys(manifest.sources!)).toEqual(['glove', 'debian']);
    expect(Object.keys(manifest.licences!)).toEqual(['glove', 'ddtp']);
    expect(manifest.evaluation_excluded!.corpora).toContain('apps/bench/corpora/notes');
    expect(Object.keys(manifest.evaluation_excluded!.packages!).length).toBeGreaterThan(1000);
    expect(manifest.derived_from).toMatchObject({ model_id: 'anamnesis/static-multi-100d' });
    expect(manifest.build).toMatchObject({ script: 'scripts/project.ts', dims: DIMENSIONS });
  });

  it('names the languages in config.json, which the engine reads', () => {
    const config = JSON.parse(readFileSync(join(ROOTS[0]!.root, MODEL_ID, 'config.json'), 'utf8'));
    expect(config.anamnesis.languages).toBe('en,de,fr,es,ru,ja,zh_CN');
  });
});
