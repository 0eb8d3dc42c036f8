/**
 * Projects a built static model onto fewer dimensions without retraining (`lib/project-root.ts`)
 * and writes a model root of its own, which `bench:quality --model-dir`, `eval:multi --model
 * ROOT=ID` and the engine read like any static model. The default model is made this way from the
 * trained 100-d root: `build:default` runs `train:model`'s training and this projection in one go.
 *
 *   pnpm --filter @anamnesis/model-default exec tsx scripts/project.ts -- --dims 48 --out DIR \
 *       [--from .cache/static-multi-100d] [--model-id anamnesis/static-multi-48d]
 *
 * Without `--dims` (or with the model's own) the model's files are copied unchanged and only
 * `neighbours.bin` is added.
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

import { cliArgs } from './lib/cli.ts';
import { projectRoot } from './lib/project-root.ts';
import { rootBytes } from './lib/roots.ts';
import { TRAINED_ROOT } from './lib/train-root.ts';

const { values } = parseArgs({
  args: cliArgs(),
  options: {
    from: { type: 'string', default: TRAINED_ROOT },
    out: { type: 'string' },
    dims: { type: 'string' },
    'model-id': { type: 'string' },
  },
});
if (values.out === undefined)
  throw new Error('--out DIR is required (build:default writes model/)');
const manifest = projectRoot({
  from: resolve(values.from),
  out: resolve(values.out),
  ...(values.dims !== undefined ? { dims: Number(values.dims) } : {}),
  ...(values['model-id'] !== undefined ? { modelId: values['model-id'] } : {}),
});
for (const [name, { bytes }] of Object.entries(manifest.files))
  console.log(`${String(bytes).padStart(9)}  ${name}`);
console.log(`${String(rootBytes(manifest)).padStart(9)}  total; ${JSON.stringify(manifest.build)}`);
