/**
 * Issue 68: what someone who knows only the room's name (the server's operator, or a client the
 * server lets in) can do to the room, and that the devices online put it right. The rogue is a
 * bare Yjs client of the room: it cannot open or seal a record, but it can delete entries, write
 * old ones back and alter bytes. Real engines, the real server on loopback.
 */
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WebsocketProvider } from 'y-websocket';
import * as Y from 'yjs';
import { createSyncCode, parseSyncCode } from '../src/index.ts';
import { FIRST_IN_ROOM } from '../src/join.ts';
import { deriveKeys } from '../src/seal.ts';
import { testRooms, closeAll, converged, PASSPHRASE, texts, until } from './devices.ts';

const rooms = testRooms('anamnesis-rogue-');
const { device } = rooms;

/** A client of the room that knows its name on the server and nothing else. */
async function rogue(roomName: string) {
  const doc = new Y.Doc();
  const provider = new WebsocketProvider(rooms.url, roomName, doc, {
    disableBc: true,
    WebSocketPolyfill: WebSocket as unknown as typeof globalThis.WebSocket,
  });
  await new Promise<void>((resolve) => provider.once('sync', () => resolve()));
  const records = doc.getMap<Uint8Array>('records');
  return {
    records,
    /** Every entry now (the rogue cannot read them, only keep their bytes). */
    snapshot: () => new Map([...records.entries()].map(([k, v]) => [k, new Uint8Array(v)])),
    close: () => provider.destroy(),
  };
}

/** The room's name as the server knows it (what the rogue is given). */
async function nameOf(room: string): Promise<string> {
  return (await deriveKeys(PASSPHRASE, room)).room;
}

describe('a rogue client that knows only the room name', () => {
  it('replays a sealed entry after its memory was forgotten: a device that joins then does not get the memory back, and all end the same within 10 s', async () => {
    const a = await device('replay');
    const b = await device('replay');
    const id = await a.engine.remember({ text: 'the old door code was 1234' });
    await a.engine.remember({ text: 'the bins go out on Thursday' });
    await converged(20_000, a, b);
    const r = await rogue(await nameOf('replay'));
    const before = r.snapshot();
    await a.engine.forget(id);
    await converged(20_000, a, b);
    await a.sync.synced();
    await until('the rogue sees the forget', () => r.snapshot().size === before.size, 5000);
    // the entry the forget replaced, written back as it was: it authenticates, its stamp is older
    let replayed = 0;
    for (const [key, bytes] of before)
      if (Buffer.compare(Buffer.from(r.records.get(key)!), Buffer.from(bytes)) !== 0) {
        r.records.set(key, bytes);
        replayed++;
      }
    expect(replayed).toBe(1);
    const c = await device('replay');
    const end = await converged(10_000, a, b, c);
    expect(end).toEqual(['the bins go out on Thursday']);
    expect(a.sync.status().repaired.replayed + b.sync.status().repaired.replayed).toBeGreaterThan(
      0,
    );
    r.close();
    await closeAll(a, b, c);
  });

  it('deletes an entry while the devices are online: a device that joins afterwards has the memory within 10 s', async () => {
    const a = await device('delete');
    const b = await device('delete');
    await a.engine.remember({ text: 'the spare key is with the neighbour' });
    await converged(20_000, a, b);
    await a.sync.synced();
    const r = await rogue(await nameOf('delete'));
    const key = [...r.records.keys()].find((k) => k !== 'key-check')!;
    r.records.delete(key);
    const c = await device('delete');
    expect(await converged(10_000, a, b, c)).toEqual(['the spare key is with the neighbour']);
    await until('the room holds the entry again', () => r.records.has(key), 10_000);
    expect(a.sync.status().repaired.deleted + b.sync.status().repaired.deleted).toBeGreaterThan(0);
    r.close();
    await closeAll(a, b, c);
  });

  it('alters an entry: the devices online report SYNC_TAMPERED and put it back; a device that joins has the memory', async () => {
    const a = await device('altered');
    const b = await device('altered');
    await a.engine.remember({ text: 'the boiler is serviced every October' });
    await converged(20_000, a, b);
    await a.sync.synced();
    const r = await rogue(await nameOf('altered'));
    const key = [...r.records.keys()].find((k) => k !== 'key-check')!;
    const bytes = new Uint8Array(r.records.get(key)!);
    bytes[bytes.length - 1]! ^= 1;
    r.records.set(key, bytes);
    await until('B reports it', () => b.sync.status().error?.code === 'SYNC_TAMPERED', 10_000);
    const c = await device('altered');
    expect(await converged(10_000, a, b, c)).toEqual(['the boiler is serviced every October']);
    expect(a.sync.status().repaired.tampered + b.sync.status().repaired.tampered).toBeGreaterThan(
      0,
    );
    r.close();
    await closeAll(a, b, c);
  });

  it("the room's name depends on the whole code, and a join that finds the room empty says so", async () => {
    const code = parseSyncCode(createSyncCode());
    // the same first 8 characters (the same `room`), another character after them
    const data = code.passphrase;
    const changed = data.slice(0, 12) + (data[12] === '0' ? '1' : '0') + data.slice(13);
    let other: ReturnType<typeof parseSyncCode> | undefined;
    for (const c of '0123456789ABCDEFGHJKMNPQRSTVWXYZ') {
      try {
        other = parseSyncCode(changed + c);
        break;
      } catch {
        // not its check character
      }
    }
    expect(other!.room).toBe(code.room);
    const [k1, k2] = await Promise.all([
      deriveKeys(code.passphrase, code.room),
      deriveKeys(other!.passphrase, other!.room),
    ]);
    expect(k1.room).not.toBe(k2.room);
    expect(k1.room).toMatch(/^[0-9a-f]{32}$/);

    const a = await device(code.room, code.passphrase);
    await a.engine.remember({ text: 'written with the right code' });
    await a.sync.synced();
    expect(a.sync.status().explain).toBe(FIRST_IN_ROOM); // the first device of its code
    const typo = await device(other!.room, other!.passphrase);
    await typo.sync.synced();
    expect(typo.sync.status()).toMatchObject({ synced: true, explain: FIRST_IN_ROOM });
    expect(await texts(typo.engine)).toEqual([]);
    const b = await device(code.room, code.passphrase);
    await b.sync.synced();
    expect(b.sync.status().explain).toBeNull();
    await b.engine.remember({ text: 'written on the second device' });
    await until('A hears of another device', () => a.sync.status().explain === null, 10_000);
    await closeAll(a, typo, b);
  });

  it('one device edits a memory while another forgets it, both offline: it ends forgotten on every device (forget beats a concurrent edit)', async () => {
    const a = await device('edit-forget');
    const b = await device('edit-forget');
    const id = await a.engine.remember({ text: 'the dentist is on Tuesday' });
    await a.engine.remember({ text: 'the car is due for its service' });
    await converged(20_000, a, b);
    a.sync.disconnect();
    b.sync.disconnect();
    await b.engine.forget(id);
    await new Promise((r) => setTimeout(r, 30));
    // made after the forget, by the clock: only rule 2 keeps the forget, rule 1 would keep this
    await a.engine.update(id, { text: 'the dentist moved to Wednesday' });
    a.sync.connect();
    b.sync.connect();
    await Promise.all([a.sync.synced(), b.sync.synced()]);
    expect(await converged(20_000, a, b)).toEqual(['the car is due for its service']);
    await closeAll(a, b);
  });
});
