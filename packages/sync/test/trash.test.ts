/**
 * Issue 68: the trash. A forget is kept, sealed, for 30 days and restorable from any device, then
 * purged from every device and the room; "Empty trash" purges at once. Real engines on store
 * files, the real server on loopback; what the room holds is read with the room's key.
 */
import { describe, expect, it } from 'vitest';
import { KEY_CHECK } from '../src/context.ts';
import { startNodeSync } from '../src/node.ts';
import { deriveKeys, unseal } from '../src/seal.ts';
import { testRooms, closeAll, converged, PASSPHRASE, until, type Device } from './devices.ts';
import { docs } from './server.ts';

const rooms = testRooms('anamnesis-trash-');
const { device } = rooms;

/** Every memory text the server's copy of the room holds, in any entry (opened with the key). */
async function textsInRoom(room: string): Promise<string[]> {
  const keys = await deriveKeys(PASSPHRASE, room);
  const doc = docs.get(keys.room)!;
  const out: string[] = [];
  for (const [key, sealed] of doc.getMap<Uint8Array>('records')) {
    if (key === KEY_CHECK) continue;
    const record = JSON.parse(new TextDecoder().decode(await unseal(keys, key, sealed))) as {
      memory?: { text: string };
    };
    if (record.memory) out.push(record.memory.text);
  }
  return out.sort();
}

/** How many links a memory has on a device (from its export). */
async function linksOf(d: Device, id: string): Promise<number> {
  const line = (await d.engine.export({ ids: [id] }))
    .split('\n')
    .find((l) => l.includes(`"${id}"`));
  return line ? (JSON.parse(line) as { links: unknown[] }).links.length : -1;
}

const BOILER = 'The boiler code is 4417, service in October';
const PLUMBER = 'Plumber Ana, 0161 555 0199';

describe('the trash', () => {
  it('a forget on one device is in every device’s trash; restored from another, it comes back everywhere with its tags and links', async () => {
    const a = await device('trash-restore');
    const b = await device('trash-restore');
    const c = await device('trash-restore'); // neither forgets nor restores: it applies both
    const boiler = await a.engine.remember({ text: BOILER, tags: ['house'] });
    const plumber = await a.engine.remember({ text: PLUMBER });
    await a.engine.link(boiler, { to: plumber, kind: 'see-also', weight: 1 });
    await converged(20_000, a, b, c);
    // C's own record of it: it had the memory, and did not forget it itself
    await c.engine.update(boiler, { importance: 0.8 });
    await until(
      'A has C’s edit',
      async () => (await a.engine.get(boiler))?.importance === 0.8,
      10_000,
    );
    await a.engine.forget(boiler);
    expect(await converged(20_000, a, b, c)).toEqual([PLUMBER]);
    for (const d of [a, b, c])
      expect(d.sync.trash()).toEqual([
        { id: boiler, text: BOILER, tags: ['house'], forgottenAt: expect.any(Number) },
      ]);
    await expect(b.sync.restore(plumber)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await b.sync.restore(boiler);
    expect(await converged(20_000, a, b, c)).toEqual([PLUMBER, BOILER]);
    for (const d of [a, b, c]) {
      const m = await d.engine.get(boiler);
      expect(m).toMatchObject({ id: boiler, tags: ['house'] });
      await until('the link is back', async () => (await linksOf(d, boiler)) === 1, 10_000);
      expect(d.sync.trash()).toEqual([]);
    }
    // the device that forgot it restores it: its tombstone is gone from the room then, and the
    // others, whose own records are older than that forget, still know they did not forget it
    await c.engine.update(boiler, { importance: 0.6 }); // C's own record newer than A's forget
    await until(
      'B has C’s edit',
      async () => (await b.engine.get(boiler))?.importance === 0.6,
      10_000,
    );
    await b.engine.forget(boiler);
    expect(await converged(20_000, a, b, c)).toEqual([PLUMBER]);
    await b.sync.restore(boiler);
    expect(await converged(20_000, a, b, c)).toEqual([PLUMBER, BOILER]);
    await closeAll(a, b, c);
  });

  it('Empty trash: the text leaves the room, every entry of it, and a device that was away with the memory forgets it when it comes back', async () => {
    const a = await device('trash-empty');
    const b = await device('trash-empty');
    const c = await device('trash-empty');
    const boiler = await a.engine.remember({ text: BOILER });
    await a.engine.remember({ text: PLUMBER });
    await converged(20_000, a, b, c);
    await c.sync.close(); // away, with the memory in its store and its own entry in the room
    await b.engine.forget(boiler);
    await converged(20_000, a, b);
    // in the trash: its last state is still in the room, sealed
    expect(await textsInRoom('trash-empty')).toContain(BOILER);
    expect(await a.sync.emptyTrash()).toBe(1);
    await until(
      'the trash is empty on both',
      () => a.sync.trash().length + b.sync.trash().length === 0,
      10_000,
    );
    await until(
      'the room holds no entry with the text',
      async () => !(await textsInRoom('trash-empty')).includes(BOILER),
      10_000,
    );
    // C comes back: it forgets the memory, and the room still holds no copy of it
    const c2: Device = {
      ...c,
      sync: await startNodeSync(c.engine, c.path, {
        url: rooms.url,
        room: 'trash-empty',
        passphrase: PASSPHRASE,
      }),
    };
    expect(await converged(20_000, a, b, c2)).toEqual([PLUMBER]);
    expect(await textsInRoom('trash-empty')).not.toContain(BOILER);
    await closeAll(a, b, c2);
  });

  it('after 30 days a device purges the trash by itself, on every device and in the room', async () => {
    let now = Date.now();
    const clock = { now: () => now };
    const a = await device('trash-expire', PASSPHRASE, clock);
    const b = await device('trash-expire', PASSPHRASE, clock);
    const boiler = await a.engine.remember({ text: BOILER });
    await converged(20_000, a, b);
    await a.engine.forget(boiler);
    await converged(20_000, a, b);
    expect(b.sync.trash().map((t) => t.id)).toEqual([boiler]);
    now += 29 * 86_400_000;
    a.sync.disconnect();
    a.sync.connect(); // a join sweeps the trash: 29 days, kept
    await a.sync.synced();
    expect(b.sync.trash()).toHaveLength(1);
    now += 2 * 86_400_000;
    a.sync.disconnect();
    a.sync.connect();
    await until(
      'the trash is purged on both',
      () => a.sync.trash().length + b.sync.trash().length === 0,
      10_000,
    );
    expect(await textsInRoom('trash-expire')).toEqual([]);
    await closeAll(a, b);
  });
});
