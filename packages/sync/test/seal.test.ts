import { AnamnesisError } from '@anamnesis/errors';
import { describe, expect, it } from 'vitest';

import { nodeScrypt } from '../src/node.ts';
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
