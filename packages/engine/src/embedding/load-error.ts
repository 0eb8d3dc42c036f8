/** Why a model did not load, as a typed error naming the file at fault (see {@link loadError}). */
import { AnamnesisError } from '@anamnesis/errors';
import type { TransformersEmbedderOptions } from './embedder.ts';
import { isNode, messageOf, type Device } from './transformers-env.ts';

/** Files a load asked for (`initiate`) and got (`done`), from transformers.js progress events. */
export interface FileLog {
  started: string[];
  done: Set<string>;
}

/** Messages of ONNX Runtime that blame the model bytes rather than the execution provider. */
const MODEL_FORMAT_ERROR = /protobuf|pars(e|ing)|invalid (model|onnx)|load model|model_path|magic/i;
/** ONNX Runtime's own errors: they name no file and are about the model's `.onnx`. */
const ONNX_RUNTIME_ERROR = /ERROR_CODE|create a session|protobuf/i;
/** Messages that say a file is not there. */
const MISSING_FILE_ERROR = /not found|could not locate|404|ENOENT|no such file/i;

/** Reads a model file back (after a failure) to tell which JSON file is corrupt. */
async function readModelText(root: string, model: string, file: string): Promise<string> {
  const rel = `${model}/${file}`;
  if (isNode() && !/^(https?|blob):/i.test(root)) {
    // Specifiers in variables: bundlers leave Node-only imports of this Node-only branch alone.
    const fsName = 'node:fs/promises';
    const pathName = 'node:path';
    const [fs, path] = (await Promise.all([
      import(/* @vite-ignore */ fsName),
      import(/* @vite-ignore */ pathName),
    ])) as [typeof import('node:fs/promises'), typeof import('node:path')];
    return fs.readFile(path.join(root, rel), 'utf8');
  }
  const base = (globalThis as { location?: { href: string } }).location?.href;
  const url = new URL(root.endsWith('/') ? root : `${root}/`, base);
  const response = await fetch(new URL(rel, url));
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.text();
}

/**
 * Turns a load failure into a typed error naming the file at fault: the file named in the
 * message, else the JSON file that does not parse, else a file that never finished loading, else
 * the ONNX file (the session could not be created). A WebGPU session failure that does not blame
 * the model bytes becomes `UNSUPPORTED` with a fresh-worker hint.
 */
export async function loadError(
  cause: unknown,
  log: FileLog,
  options: TransformersEmbedderOptions,
  localModelPath: string | undefined,
  device: Device,
): Promise<AnamnesisError> {
  const message = messageOf(cause);
  const model = options.model;
  // transformers.js names the path it failed on ("…/<model>/<file>"); not every file it reads
  // (config.json while it lists a pipeline's files) shows up in the progress events.
  const named = [...message.matchAll(/"([^"]+)"/g)]
    .map((m) => m[1]!)
    .find((quoted) => quoted.includes(`${model}/`));
  let file =
    named?.slice(named.indexOf(`${model}/`) + model.length + 1) ??
    log.started.find((f) => message.includes(`${model}/${f}`) || message.includes(f));
  let reason: 'missing' | 'corrupt' | 'session' = 'corrupt';
  if (file) {
    if (MISSING_FILE_ERROR.test(message)) reason = 'missing';
    else if (file.endsWith('.onnx') && !MODEL_FORMAT_ERROR.test(message)) reason = 'session';
  } else if (cause instanceof SyntaxError && localModelPath !== undefined) {
    const jsonFiles = new Set([
      'config.json',
      ...log.started.filter((name) => name.endsWith('.json')),
      'tokenizer_config.json',
      'tokenizer.json',
    ]);
    for (const f of jsonFiles) {
      try {
        JSON.parse(await readModelText(localModelPath, model, f));
      } catch {
        file = f;
        break;
      }
    }
  }
  // a session that failed blames the .onnx, whatever other file was still arriving beside it
  if (!file && ONNX_RUNTIME_ERROR.test(message)) {
    file = log.started.find((f) => f.endsWith('.onnx'));
    if (file) reason = MODEL_FORMAT_ERROR.test(message) ? 'corrupt' : 'session';
  }
  if (!file) file = log.started.find((f) => !log.done.has(f));
  if (!file) {
    file = log.started.find((f) => f.endsWith('.onnx'));
    if (file) reason = MODEL_FORMAT_ERROR.test(message) ? 'corrupt' : 'session';
  }
  if (reason === 'session' && device === 'webgpu') {
    return new AnamnesisError(
      'UNSUPPORTED',
      `WebGPU could not create a session for ${model} (${message}); WebGPU sessions in this ` +
        `worker will keep failing: start a fresh worker with device 'wasm'`,
      { cause, details: { model, device, file, fallback: 'wasm', freshWorker: true } },
    );
  }
  const what =
    reason === 'missing'
      ? 'file is missing'
      : reason === 'session'
        ? 'model could not be run'
        : 'file is corrupt or unreadable';
  return new AnamnesisError(
    'MODEL_LOAD_FAILED',
    `${model}: ${file ?? 'unknown file'}: ${what} (${message})`,
    { cause, details: { model, file, reason, device } },
  );
}
