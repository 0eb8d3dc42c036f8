/**
 * Sync in Node (`@anamnesis/sync/node`): the WebSocket class from `ws` (Node 20 has none), the
 * keys' scrypt from `node:crypto`, and the device's sync state in a file beside its store.
 */
import { createCipheriv, createDecipheriv, scrypt } from 'node:crypto';
import { open, readFile, rename } from 'node:fs/promises';
import { hostname } from 'node:os';
import { AnamnesisError } from '@anamnesis/errors';
import type { SyncPlugin } from '@anamnesis/engine';
import WebSocket from 'ws';
import {
  checkSyncOptions,
  startSync,
  type Sync,
  type SyncEngine,
  type SyncOptions,
  type SyncStateStore,
} from './sync.ts';
import type { Cipher, Scrypt } from './types.ts';

const MAGIC = 'anamnesis-sync 1\n';

/**
 * A {@link SyncStateStore} in the file at `path` (e.g. the store's path plus `.sync`): the Yjs
 * document as this device last had it (sealed records only, as the server holds them) and the
 * device's id. Written to a temporary file, flushed, then renamed over the old one: a crash keeps
 * the old state or the new.
 */
export function fileState(path: string): SyncStateStore {
  return {
    async load() {
      let bytes: Buffer;
      try {
        bytes = await readFile(path);
      } catch (e) {
        if ((e as { code?: string }).code === 'ENOENT') return undefined;
        throw e;
      }
      const text = bytes.subarray(0, 2048).toString('latin1');
      const end = text.indexOf('\n', MAGIC.length);
      if (!text.startsWith(MAGIC) || end < 0)
        throw new AnamnesisError('STORE_CORRUPT', `${path} is not a sync state file`, {
          details: { path },
        });
      // `<device>`, or `<device> <identity> <room>` (the private key's JWK, JSON without spaces)
      const [device, identity, room] = text.slice(MAGIC.length, end).split(' ');
      return {
        device: device!,
        ...(identity ? { identity } : {}),
        ...(room ? { room } : {}),
        doc: new Uint8Array(bytes.subarray(end + 1)),
      };
    },
    async save({ device, identity, room, doc }) {
      const tmp = `${path}.tmp`;
      const file = await open(tmp, 'w');
      try {
        await file.write(
          Buffer.from(
            `${MAGIC}${[device, ...(identity ? [identity, room ?? ''] : [])].join(' ')}\n`,
            'latin1',
          ),
        );
        await file.write(doc);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(tmp, path);
    },
  };
}

/** scrypt from `node:crypto`: OpenSSL's, in libuv's thread pool (the event loop goes on). */
export const nodeScrypt: Scrypt = (password, salt, { N, r, p, dkLen, maxmem }) =>
  new Promise((resolve, reject) =>
    scrypt(password, salt, dkLen, { N, r, p, maxmem }, (e, key) =>
      e ? reject(e) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.length)),
    ),
  );

/** The tag's bytes after AES-GCM's ciphertext. */
const TAG_BYTES = 16;

/**
 * AES-256-GCM from `node:crypto`, called synchronously: a record opened in ~5 µs, where WebCrypto's
 * promise and hop to the thread pool cost ~20 µs more (10,000 records of a first sync: 50 against
 * 170–270 ms on this project's machine). The key is kept as a copy.
 */
export const nodeCipher: Cipher = (key) => {
  const kept = Buffer.from(key);
  return {
    seal(iv, aad, plain) {
      const c = createCipheriv('aes-256-gcm', kept, iv).setAAD(aad);
      return Buffer.concat([c.update(plain), c.final(), c.getAuthTag()]);
    },
    open(iv, aad, sealed) {
      if (sealed.length < TAG_BYTES) throw new Error('AES-GCM: no tag');
      const d = createDecipheriv('aes-256-gcm', kept, iv)
        .setAAD(aad)
        .setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
      return Buffer.concat([d.update(sealed.subarray(0, sealed.length - TAG_BYTES)), d.final()]);
    },
  };
};

/**
 * {@link startSync} for a Node engine on a file store: `ws` for the connection and the state in
 * `<store path>.sync` (unless `options` say otherwise).
 */
export function startNodeSync(
  engine: SyncEngine,
  storePath: string,
  options: SyncOptions,
): Promise<Sync> {
  return startSync(engine, {
    WebSocket,
    scrypt: nodeScrypt,
    cipher: nodeCipher,
    state: fileState(`${storePath}.sync`),
    deviceName: hostname(),
    ...options,
  });
}

/**
 * The sync of a Node engine opened by `createEngine({ sync: nodeSync({ url, room, passphrase }) })`:
 * {@link startNodeSync} once the store is open (its state beside a file store, in memory for a
 * memory store). The options are checked here (`INVALID_INPUT`); `engine.sync()` gives the
 * running sync.
 */
export function nodeSync(options: SyncOptions): SyncPlugin<SyncEngine> {
  checkSyncOptions(options);
  return {
    start: (engine, { path }) =>
      path === undefined
        ? startSync(engine, {
            WebSocket,
            scrypt: nodeScrypt,
            cipher: nodeCipher,
            deviceName: hostname(),
            ...options,
          })
        : startNodeSync(engine, path, options),
  };
}
