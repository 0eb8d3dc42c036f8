import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { DIMENSIONS, MANIFEST_FILE, MODEL_FILES, MODEL_ID, modelRootPath } from '../src/index.ts';

interface Manifest {
  model_id: string;
  files: Record<string, { bytes: number; sha256: string }>;
  build: Record<string, unknown>;
}

const root = await modelRootPath();
const manifest = JSON.parse(readFileSync(join(root, MANIFEST_FILE), 'utf8')) as Manifest;

describe('committed model files', () => {
  it('are exactly the files the manifest lists, for the exported model id', () => {
    expect(manifest.model_id).toBe(MODEL_ID);
    expect(Object.keys(manifest.files).sort()).toEqual([...MODEL_FILES].sort());
  });

  it.each(MODEL_FILES)('%s matches its manifest sha256 and size', (name) => {
    const bytes = readFileSync(join(root, name));
    expect(bytes.length).toBe(manifest.files[name]!.bytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(manifest.files[name]!.sha256);
  });

  it('stay under the 8 MB budget', () => {
    const total = Object.values(manifest.files).reduce((sum, f) => sum + f.bytes, 0);
    expect(total).toBeLessThanOrEqual(8_000_000);
  });

  it('declare a BERT-type config with the exported dimension and a dtype pinned for every device', () => {
    const config = JSON.parse(readFileSync(join(root, MODEL_ID, 'config.json'), 'utf8'));
    expect(config.model_type).toBe('bert');
    expect(config.hidden_size).toBe(DIMENSIONS);
    expect(config['transformers.js_config']).toEqual({ dtype: 'q8' });
    const tokenizerConfig = JSON.parse(
      readFileSync(join(root, MODEL_ID, 'tokenizer_config.json'), 'utf8'),
    );
    expect(tokenizerConfig.model_max_length).toBe(512);
    expect(tokenizerConfig.do_lower_case).toBe(true);
  });
});
