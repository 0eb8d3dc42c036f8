/**
 * Two versions of an app on one store (issue 41): after an update, a tab of the new version opens
 * beside an owner tab of the old one. They cannot share the store (the tab protocol differs) and
 * only one can hold its files, so the new tab must hear at once that it cannot open here, with a
 * typed error that says to reload, instead of waiting for an owner that never answers it.
 */
import { AnamnesisError } from '@anamnesis/errors';
import { describe, expect, it } from 'vitest';

import { LEGACY_VERSIONS, PROTOCOL_VERSION } from '../src/tabs/protocol.ts';
import { LockRegistry, newTab, open } from './opened.ts';

/**
 * An owner tab of another protocol version, as its code behaves: it holds the store's lock and
 * answers only hellos of its own version, with an owner announcement of its own version
 * (protocol 3 and before), or (`answersAll`: protocol 4 and after) every hello with a
 * `version` message.
 */
function otherOwner(
  registry: LockRegistry,
  name: string,
  version: number,
  answersAll = false,
): { heard: unknown[]; release: () => void } {
  const tab = newTab(registry);
  let release = () => {};
  void tab.env.locks!.request(
    `anamnesis:${name}`,
    {},
    () => new Promise<void>((r) => (release = r)),
  );
  const channel = tab.env.createChannel!(`anamnesis:${name}`);
  const heard: unknown[] = [];
  channel.addEventListener('message', (event) => {
    const m = event.data as { v?: number; t?: string };
    heard.push(m);
    if (m?.t !== 'hello') return;
    if (m.v === version) {
      channel.postMessage({
        v: version,
        t: 'owner',
        from: 'old-owner',
        info: { device: 'wasm', backend: 'opfs', model: { id: 'm', dims: 100 } },
      });
    } else if (answersAll) {
      channel.postMessage({ v: version, t: 'version', from: 'old-owner', role: 'owner' });
    }
  });
  return { heard, release: () => release() };
}

describe('a tab beside an owner of another version', () => {
  it('an owner of an older version (protocol 3, which ignores newer messages): the new tab gets VERSION_MISMATCH within a second', async () => {
    expect(LEGACY_VERSIONS).toContain(3);
    const registry = new LockRegistry();
    const old = otherOwner(registry, 'updated', 3);
    const started = Date.now();
    const error = await open(newTab(registry), { name: 'updated' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error).toBeInstanceOf(AnamnesisError);
    expect(error).toMatchObject({
      code: 'VERSION_MISMATCH',
      details: { protocol: PROTOCOL_VERSION, other: 3 },
    });
    expect((error as Error).message).toMatch(/older version.*reload/i);
    old.release();
  });

  it('an owner of a newer version: this tab is the old one, and is told to reload', async () => {
    const registry = new LockRegistry();
    otherOwner(registry, 'newer', PROTOCOL_VERSION + 1, true);
    const started = Date.now();
    const error = await open(newTab(registry), { name: 'newer' }).then(
      () => undefined,
      (e: unknown) => e as AnamnesisError,
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(error?.code).toBe('VERSION_MISMATCH');
    expect(error?.message).toMatch(/newer version.*reload this/i);
  });

  it('an owner of this version answers a hello of another version with its version, and keeps serving its own', async () => {
    const registry = new LockRegistry();
    const owner = await open(newTab(registry), { name: 'answers' });
    await owner.remember({ text: 'the owner keeps working' });
    const channel = new BroadcastChannel('anamnesis:answers');
    const heard: { v: number; t: string; role?: string }[] = [];
    channel.addEventListener('message', (e: MessageEvent) => heard.push(e.data as never));
    channel.postMessage({ v: PROTOCOL_VERSION + 1, t: 'hello', from: 'newer-tab' });
    const end = Date.now() + 1000;
    while (!heard.some((m) => m.t === 'version') && Date.now() < end)
      await new Promise((r) => setTimeout(r, 10));
    channel.close();
    expect(heard).toContainEqual(
      expect.objectContaining({ v: PROTOCOL_VERSION, t: 'version', role: 'owner' }),
    );
    const follower = await open(newTab(registry), { name: 'answers' });
    expect(follower.role).toBe('follower');
    expect(await follower.recall('owner keeps working')).toHaveLength(1);
  });
});
