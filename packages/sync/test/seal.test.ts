import { AnamnesisError } from '@anamnesis/errors';
import { describe, expect, it } from 'vitest';

import { nodeCipher, nodeScrypt } from '../src/node.ts';
import { blindName, deriveKeys, seal, unseal } from '../src/seal.ts';
import { startSync } from '../src/sync.ts';

const utf8 = new TextEncoder();

describe("the keys' scrypt", () => {
  it("node:crypto's scrypt derives the keys @noble/hashes' does: a record sealed by a device of either kind opens on the other", async () => {
    const [js, native] = await Promise.all([
      deriveKeys('KQ7WF-2M4XR-T9BHC-6PZ3N-D8VJA', 'room-a'),
      deriveKeys('KQ7WF-2M4XR-T9BHC-6PZ3N-D8VJA', 'room-a', nodeScrypt),
    ]);
    expect(native.room).toBe(js.room);
    expect(native.room).toMatch(/^[0-9a-f]{32}$/);
    expect(blindName(native, 'memory-1')).toBe(blindName(js, 'memory-1'));
    const sealed = await seal(js, 'k1', utf8.encode('the passport is in the blue folder'));
    expect(new TextDecoder().decode(await unseal(native, 'k1', sealed))).toBe(
      'the passport is in the blue folder',
    );
    // another room, another name
    expect((await deriveKeys('KQ7WF-2M4XR-T9BHC-6PZ3N-D8VJA', 'room-b', nodeScrypt)).room).not.toBe(
      js.room,
    );
  });

  it('an scrypt that gives the wrong bytes is an INTERNAL error; one that is not a function is refused', async () => {
    await expect(
      deriveKeys('passphrase', 'room', () => Promise.resolve(new Uint8Array(32))),
    ).rejects.toMatchObject({ code: 'INTERNAL' });
    const refused = await startSync({} as never, {
      url: 'ws://127.0.0.1:1',
      room: 'r',
      passphrase: 'p',
      scrypt: 'fast' as never,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AnamnesisError);
    expect((refused as AnamnesisError).code).toBe('INVALID_INPUT');
  });
});

describe("the records' cipher", () => {
  it("node:crypto's AES-GCM and WebCrypto's open each other's records, and both refuse an altered one as SYNC_TAMPERED", async () => {
    const [web, native] = await Promise.all([
      deriveKeys('KQ7WF-2M4XR-T9BHC-6PZ3N-D8VJA', 'room-c', nodeScrypt),
      deriveKeys('KQ7WF-2M4XR-T9BHC-6PZ3N-D8VJA', 'room-c', nodeScrypt, nodeCipher),
    ]);
    const text = 'the spare key is under the blue pot';
    for (const [from, to] of [
      [web, native],
      [native, web],
    ] as const) {
      const sealed = await seal(from, 'k1', utf8.encode(text));
      expect(new TextDecoder().decode(await unseal(to, 'k1', sealed))).toBe(text);
      // the same bytes under another map key, or one bit changed, or the tag cut off
      const flipped = sealed.slice();
      flipped[20]! ^= 1;
      for (const [aad, bytes] of [
        ['k2', sealed],
        ['k1', flipped],
        ['k1', sealed.subarray(0, 12 + 16)],
        ['k1', sealed.subarray(0, 20)],
      ] as const)
        await expect(unseal(to, aad, bytes)).rejects.toMatchObject({ code: 'SYNC_TAMPERED' });
    }
    // a fresh nonce per record: the same text seals differently
    const twice = [
      await seal(native, 'k1', utf8.encode(text)),
      await seal(native, 'k1', utf8.encode(text)),
    ];
    expect(Buffer.from(twice[0]!).equals(Buffer.from(twice[1]!))).toBe(false);
  });

  it('a cipher that is not a function is refused', async () => {
    const refused = await startSync({} as never, {
      url: 'ws://127.0.0.1:1',
      room: 'r',
      passphrase: 'p',
      cipher: 'aes' as never,
    }).catch((e: unknown) => e);
    expect((refused as AnamnesisError).code).toBe('INVALID_INPUT');
  });
});
