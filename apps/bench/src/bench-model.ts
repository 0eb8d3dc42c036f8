/**
 * Which model the Node benches run: the default model (`@anamnesis/model-default`), or another
 * model root given by `--model-dir DIR` or the environment variable `ANAMNESIS_MODEL_DIR` (the
 * option wins). A model root is a folder with `<model id>/…` and a `manifest.json` whose `model_id`
 * names the model, as `build:model --out DIR`, `train:model` and `project.ts` write it; the English
 * model is `packages/model-default/english`, the trained 100-d model that the default is projected
 * from `packages/model-default/.cache/static-multi-100d` (after `train:model` or `build:default`):
 *
 *   pnpm bench:quality -- --locomo ../shared/data/locomo-dev --model-dir packages/model-default/english
 *   ANAMNESIS_MODEL_DIR=packages/model-default/english pnpm bench:embed
 *
 * A relative folder is taken from where the command was typed (`INIT_CWD` under pnpm). The
 * engine's default stays the default model: this only changes what the benches load.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { defaultEmbedderOptions } from '@anamnesis/engine';
import { MODEL_ID } from '@anamnesis/model-default';

/** The environment variable naming a model root for the benches. */
export const MODEL_DIR_ENV = 'ANAMNESIS_MODEL_DIR';

/** The model root the benches should use instead of the default model, as an absolute path. */
export function benchModelDir(option: string | undefined): string | undefined {
  const dir = option ?? process.env[MODEL_DIR_ENV];
  if (dir === undefined || dir === '') return undefined;
  return resolve(process.env.INIT_CWD ?? process.cwd(), dir);
}

/**
 * Embedder options for the benches: the default model's, or the model under `modelDir` (its id
 * from `modelDir/manifest.json`, else the default model's id).
 */
export async function benchEmbedderOptions(
  modelDir: string | undefined,
): ReturnType<typeof defaultEmbedderOptions> {
  const options = await defaultEmbedderOptions();
  if (modelDir === undefined) return options;
  const manifest = join(modelDir, 'manifest.json');
  const model = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { model_id: string }).model_id
    : MODEL_ID;
  return { ...options, model, localModelPath: modelDir };
}

/** Throws when `--docs` is asked of a bench that runs another model than the default one. */
export function refuseDocsForOtherModel(docs: boolean, modelDir: string | undefined): void {
  if (docs && modelDir !== undefined)
    throw new Error(
      `--docs records the default model's measurements: leave out --model-dir and ${MODEL_DIR_ENV}`,
    );
}
